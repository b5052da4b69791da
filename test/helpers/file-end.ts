/**
 * @module file-end
 * What each test file leaves behind is stopped when that file ends: helpers that start servers
 * (Redis, Swift, nginx, hosts) register their stop-everything function here once, and
 * file-end-setup.ts (a vitest setup file, run for every test file) calls them all after the
 * file's own afterAll hooks. The suite reuses one process for many files, so a helper module is
 * loaded once per process and cannot register a per-file hook itself. A benchmark (no vitest)
 * calls the stop functions it needs itself.
 */

const cleanups = new Set<() => Promise<void>>();

/** Runs `stop` after every test file (once registered, for each file that follows). */
export function atFileEnd(stop: () => Promise<void>): void {
  cleanups.add(stop);
}

/** Runs every registered stop function (file-end-setup.ts calls this after each file). */
export async function runFileEnd(): Promise<void> {
  await Promise.all([...cleanups].map((stop) => stop()));
}
