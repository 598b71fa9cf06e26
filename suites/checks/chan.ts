/**
 * CHAN: a channel-bound token sees only its channel's groups. Its checks are SCOPE's, the refusal or
 * the list without them (scope.ts: refusedOrNoneOf, refusedOrCountsNone), judged against this sentence.
 */

/** What a channel-bound token's answers are judged against. */
export const ONLY_THAT_CHANNEL = "When the token is bound to a fixed channel, only that channel's groups are returned.";
