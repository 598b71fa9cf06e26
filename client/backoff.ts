/**
 * The waits between polls of a lagging snapshot, for every poll of the kit (the create-and-wait phase,
 * the re-reads of the run's groups, `agc profile discover`): from `firstMs`, doubling up to `capMs`.
 * Doubling finds a short lag in few polls and spares the target a long one; the cap keeps a group
 * from being seen much later than it showed up. Each caller bounds the polls by its own deadline.
 */
export function* backOff(firstMs: number, capMs: number): Generator<number, never, void> {
  for (let waitMs = firstMs; ; waitMs = Math.min(2 * waitMs, capMs)) yield waitMs;
}
