/**
 * Starts `vitrine serve` as a real process and waits for its `listening on` line.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { CLI, REPO } from './fixture-plugins.ts';

export interface RunningHost {
  url: string;
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

export function spawnHost(args: string[], env: NodeJS.ProcessEnv = {}): Promise<RunningHost> {
  const child = spawn(process.execPath, [CLI, 'serve', ...args], { cwd: REPO, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`host did not start:\n${out}\n${err}`)), 30_000);
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const match = /listening on (http:\/\/\S+)/.exec(out);
      if (match) {
        clearTimeout(timer);
        resolve({
          url: match[1]!,
          child,
          stdout: () => out,
          stderr: () => err,
          stop: (signal = 'SIGTERM') => {
            if (child.exitCode === null) child.kill(signal);
            return exited;
          },
        });
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`host exited with ${code}:\n${out}\n${err}`));
    });
  });
}
