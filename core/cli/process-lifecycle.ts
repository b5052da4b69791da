/**
 * @module process-lifecycle
 * How every long-running command (`serve`, `dev`, `worker`) ends. The first SIGINT or SIGTERM
 * starts a clean shutdown (the command's own steps); the exit code is 0 when they finish and 1
 * when one fails. A second signal exits at once with 1, and so does a shutdown still running
 * after `forceAfterMs` (none for a worker, which bounds its own drain).
 *
 * A command npm started also ends when npm does, as on SIGTERM: npm does not pass a signal on to
 * the command it runs, so a SIGTERM sent to `npx vitrine serve` (or to `npm start`) ends npm and
 * its shell and would leave the host running, holding its port, with no parent. Commands started
 * any other way (a terminal, systemd, a container) keep their parent's death to themselves.
 */

/** How often the parent is looked at. */
const POLL_MS = 250;

/** True when npm (npx, npm exec, npm start, npm run) started this process. */
function startedByNpm(env: NodeJS.ProcessEnv): boolean {
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
  }, POLL_MS).unref();
}

export interface Lifecycle {
  /** The command's name in messages (`vitrine serve`). */
  name: string;
  /** Said when the first signal arrives. */
  announce(signal: NodeJS.Signals): void;
  /** The shutdown steps. */
  shutdown(): Promise<unknown>;
  /** Exits with 1 if the shutdown takes longer (default 10 s; null for never). */
  forceAfterMs?: number | null;
}

/** Resolves with the exit code once a signal has ended the command. */
export function untilSignalled(lifecycle: Lifecycle): Promise<number> {
  return new Promise<number>((resolve) => {
    let closing = false;
    const onSignal = (signal: NodeJS.Signals) => {
      if (closing) {
        process.stderr.write(`${lifecycle.name}: ${signal} again, exiting now\n`);
        process.exit(1);
      }
      closing = true;
      lifecycle.announce(signal);
      const forceAfterMs = lifecycle.forceAfterMs === undefined ? 10_000 : lifecycle.forceAfterMs;
      if (forceAfterMs !== null) setTimeout(() => process.exit(1), forceAfterMs).unref();
      lifecycle.shutdown().then(
        () => resolve(0),
        () => resolve(1),
      );
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
    whenParentGone(() => onSignal('SIGTERM'));
  });
}
