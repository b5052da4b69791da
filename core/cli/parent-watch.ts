/**
 * @module parent-watch
 * npm does not pass a signal on to the command it runs: a SIGTERM sent to `npx vitrine
 * serve` (or to `npm start`) ends npm and its shell and leaves the host running, holding its
 * port, with no parent. A command npm started therefore watches its parent and, once that
 * parent is gone, ends as if it had been sent SIGTERM. Commands started any other way (a
 * terminal, systemd, a container) keep their parent's death to themselves, as usual.
 */

/** How often the parent is looked at. */
const POLL_MS = 250;

/** True when npm (npx, npm exec, npm start, npm run) started this process. */
export function startedByNpm(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.npm_command !== undefined || env.npm_lifecycle_event !== undefined;
}

/** Calls `onGone` once when this process's parent ends (only for a process npm started). */
export function whenParentGone(onGone: () => void, env: NodeJS.ProcessEnv = process.env): void {
  if (!startedByNpm(env)) return;
  const parent = process.ppid;
  const watch = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(watch);
    onGone();
  }, POLL_MS);
  watch.unref();
}
