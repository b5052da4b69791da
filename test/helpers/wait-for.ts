/**
 * @module wait-for
 * The one way tests wait for state that changes asynchronously: poll a probe until it gives
 * something other than undefined, or fail past a deadline naming what was awaited (and the
 * probe's last error, since a probe may throw until the state exists).
 */

/** Polls `probe` every `intervalMs` until it returns something other than undefined; throws after `limitMs`. */
export async function waitFor<T>(probe: () => Promise<T | undefined> | T | undefined, what: string, limitMs = 20_000, intervalMs = 50): Promise<T> {
  const deadline = Date.now() + limitMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what} after ${limitMs} ms${last ? ` (last error: ${String(last)})` : ''}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
