/**
 * @module wait-for
 * The one way tests wait for state that changes asynchronously: poll a probe until it gives
 * something other than undefined, or fail past a deadline naming what was awaited (and the
 * probe's last error, since a probe may throw until the state exists); and a promise awaited
 * with the same backstop, so one that never settles fails naming what it was.
 */

/**
 * How long a wait may go on before it gives up: a backstop for a state that never comes, not
 * an estimate of how long it takes (a wait ends when its state arrives). Sized for a 2-core
 * machine under load, the suite beside other work, where a process start or a Python import
 * takes several times what it takes on a quiet one.
 */
export const STATE_WAIT_MS = 120_000;

/** Polls `probe` every `intervalMs` until it returns something other than undefined; throws after `limitMs`. */
export async function waitFor<T>(probe: () => Promise<T | undefined> | T | undefined, what: string, limitMs = STATE_WAIT_MS, intervalMs = 50): Promise<T> {
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

/**
 * Resolves as `promise` does, or throws naming `what` once `limitMs` passed: a step that never
 * settles (a stream that never ends, a command that never exits) fails saying which it was.
 */
export async function settled<T>(promise: Promise<T>, what: string, limitMs = STATE_WAIT_MS): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`gave up waiting for ${what} after ${limitMs} ms`)), limitMs);
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}
