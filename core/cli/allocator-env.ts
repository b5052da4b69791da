/**
 * @module allocator-env
 * Runs the host with an allocator setting that lets freed result memory go back to the
 * system. glibc serves blocks below its mmap threshold from its arenas, and that threshold
 * rises (up to 32 MiB) every time a large block is freed; result buffers of a few MiB then
 * land in per-thread arenas, and an arena whose middle was freed is never returned: after a
 * 2,000-job flood the host stayed at 4.7 GB with nothing left in it. A fixed threshold of
 * 64 KiB (MALLOC_MMAP_THRESHOLD_) gives each large buffer its own mapping, unmapped on free.
 *
 * glibc reads the setting only at process start, so `vitrine serve` (and `dev`) started
 * without it starts itself again with it, passing signals on and exiting with the same code;
 * the relaunched host ends with its launcher (at once through setpriv's parent-death signal
 * where util-linux has it, else within 200 ms by watching its parent). Set MALLOC_MMAP_THRESHOLD_
 * yourself (any value) to run in one process, or VITRINE_ALLOCATOR=default to keep glibc's.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { whenParentGone } from './process-lifecycle.ts';

export const ALLOCATOR_ENV = Object.freeze({ MALLOC_MMAP_THRESHOLD_: '65536' });

const LAUNCHER_PID = 'VITRINE_LAUNCHER_PID';

/** True when this process should start again with the allocator setting. */
export function wantsAllocatorEnv(env: NodeJS.ProcessEnv = process.env, platform = process.platform): boolean {
  return platform === 'linux' && env.MALLOC_MMAP_THRESHOLD_ === undefined && env.VITRINE_ALLOCATOR !== 'default';
}

/** util-linux's setpriv, when present: the kernel then ends the host the moment its launcher dies. */
function setprivPath(): string | null {
  for (const dir of ['/usr/bin', '/bin']) if (existsSync(`${dir}/setpriv`)) return `${dir}/setpriv`;
  return null;
}

/** Runs this same command again with the allocator setting; resolves with its exit code. */
export function relaunchWithAllocatorEnv(argv: string[]): Promise<number> {
  const command = [process.execPath, ...process.execArgv, process.argv[1]!, ...argv];
  const setpriv = setprivPath();
  const [file, ...args] = setpriv ? [setpriv, '--pdeathsig', 'KILL', '--', ...command] : command;
  const child = spawn(file!, args, {
    stdio: 'inherit',
    // Its own process group: a Ctrl-C reaches the launcher only, which passes it on once.
    detached: true,
    env: { ...process.env, ...ALLOCATOR_ENV, [LAUNCHER_PID]: String(process.pid) },
  });
  const forward = (signal: NodeJS.Signals) => () => {
    if (child.exitCode === null) child.kill(signal);
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, forward(signal));
  // Started by npm, which ends without passing its signal on: the host ends with it.
  whenParentGone(forward('SIGTERM'));
  return new Promise((resolve) => {
    child.once('error', (error) => {
      process.stderr.write(`vitrine: cannot start the host process: ${error.message}\n`);
      resolve(1);
    });
    child.once('exit', (code, signal) => resolve(code ?? (signal === 'SIGINT' ? 130 : signal === 'SIGTERM' ? 143 : 1)));
  });
}

/** In a relaunched host: exits once the launcher is gone (killed with no chance to forward). */
export function followLauncher(env: NodeJS.ProcessEnv = process.env): void {
  const launcher = Number(env[LAUNCHER_PID]);
  if (!Number.isInteger(launcher) || launcher <= 0) return;
  setInterval(() => {
    if (process.ppid !== launcher) process.exit(1);
  }, 200).unref();
}
