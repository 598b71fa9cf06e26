/**
 * Users and tokens of the reference server.
 *
 * The spec says only that a token belongs to a user and "may be bound to a fixed channel"; how
 * tokens are issued is not shown. The reference server therefore ships a fixed cast that covers
 * every scoping rule the kit tests: a primary user with an unbound token, a second user (for
 * "only the current user's groups"), and two tokens of the primary user bound to different
 * channels (for "only that channel's groups").
 */

export type TokenRole = 'primary' | 'otherUser' | 'channelA' | 'channelB';

export interface ReferenceToken {
  /** The bearer value. Never logged. */
  token: string;
  /** null = not bound to a channel: sees all of its user's groups. */
  channel: string | null;
  /** Which default role this token plays, when it is one of the kit's defaults. */
  role?: TokenRole;
}

export interface ReferenceUser {
  id: string;
  tokens: ReferenceToken[];
}

export interface TokenRoleInfo {
  role: TokenRole;
  userId: string;
  channel: string | null;
  /** Environment variable the reference server reads the token value from. */
  serverEnv: string;
  /** Fixed, readable value used when the variable is unset or empty. */
  defaultToken: string;
  /** Variable name the kit's clients read (printed by `npm run reference` for a .env file). */
  clientEnv: string;
}

export const PRIMARY_USER_ID = 'user-primary';
export const OTHER_USER_ID = 'user-other';
export const CHANNEL_A = 'channel-a';
export const CHANNEL_B = 'channel-b';

export const TOKEN_ROLES: readonly TokenRoleInfo[] = [
  { role: 'primary', userId: PRIMARY_USER_ID, channel: null, serverEnv: 'AG_REF_TOKEN', defaultToken: 'ref-primary-token', clientEnv: 'AG_TOKEN' },
  {
    role: 'otherUser',
    userId: OTHER_USER_ID,
    channel: null,
    serverEnv: 'AG_REF_TOKEN_OTHER_USER',
    defaultToken: 'ref-other-user-token',
    clientEnv: 'AG_TOKEN_OTHER_USER',
  },
  {
    role: 'channelA',
    userId: PRIMARY_USER_ID,
    channel: CHANNEL_A,
    serverEnv: 'AG_REF_TOKEN_CHANNEL_A',
    defaultToken: 'ref-channel-a-token',
    clientEnv: 'AG_TOKEN_CHANNEL_A',
  },
  {
    role: 'channelB',
    userId: PRIMARY_USER_ID,
    channel: CHANNEL_B,
    serverEnv: 'AG_REF_TOKEN_CHANNEL_B',
    defaultToken: 'ref-channel-b-token',
    clientEnv: 'AG_TOKEN_CHANNEL_B',
  },
];

type Env = Record<string, string | undefined>;

/** The token value of one role. An empty variable counts as unset: an empty bearer token can never be sent. */
export function tokenFor(role: TokenRole, env: Env = process.env): string {
  const info = TOKEN_ROLES.find((r) => r.role === role);
  if (!info) throw new Error(`unknown token role ${role}`);
  const fromEnv = env[info.serverEnv];
  return fromEnv !== undefined && fromEnv !== '' ? fromEnv : info.defaultToken;
}

/** role -> token value, for callers that address tokens by what they are for. */
export function referenceTokens(env: Env = process.env): Record<TokenRole, string> {
  return {
    primary: tokenFor('primary', env),
    otherUser: tokenFor('otherUser', env),
    channelA: tokenFor('channelA', env),
    channelB: tokenFor('channelB', env),
  };
}

export function referenceUsers(env: Env = process.env): ReferenceUser[] {
  const users = new Map<string, ReferenceUser>();
  for (const info of TOKEN_ROLES) {
    let user = users.get(info.userId);
    if (!user) users.set(info.userId, (user = { id: info.userId, tokens: [] }));
    user.tokens.push({ token: tokenFor(info.role, env), channel: info.channel, role: info.role });
  }
  return [...users.values()];
}

/** The reference server's default tokens as the kit's variables (AG_TOKEN, …), for runs against it. */
export function referenceTokenEnv(): Record<string, string> {
  const tokens = referenceTokens({});
  return Object.fromEntries(TOKEN_ROLES.map((info) => [info.clientEnv, tokens[info.role]]));
}
