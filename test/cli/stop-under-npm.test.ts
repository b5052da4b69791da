/**
 * Ending a host that npm started: npm passes no signal on to the command it runs, so a
 * SIGTERM sent to `npx vitrine serve` (or to the shell of `npm start`) used to leave the host
 * holding its port. The host watches its parent when npm started it and shuts down cleanly
 * once that parent is gone. Also `vitrine --version`.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CLI, REPO } from '../helpers/cli-path.ts';
import { makeSpecimensDir } from '../helpers/specimens-dir.ts';
import { waitFor } from '../helpers/wait-for.ts';

const started: ChildProcess[] = [];
afterEach(() => {
  for (const child of started.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});

/** Starts `command` and resolves with the URL its host prints, and what it writes. */
function startLogged(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<{ child: ChildProcess; url: string; output: () => string }> {
  const child = spawn(command, args, { cwd: REPO, env, stdio: ['ignore', 'pipe', 'pipe'] });
  started.push(child);
  let output = '';
  return new Promise((resolve, reject) => {
    const onData = (text: Buffer) => {
      output += text.toString();
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match) resolve({ child, url: match[1]!, output: () => output });
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`exited with ${code} before listening:\n${output}`)));
  });
}

/** True once nothing answers at `url` any more. */
async function portClosed(url: string): Promise<true | undefined> {
  try {
    await fetch(`${url}/healthz`);
    return undefined;
  } catch {
    return true;
  }
}

/** The environment a command gets from a shell: no allocator setting (so the host relaunches itself, as for a user). */
function userEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  delete env.MALLOC_MMAP_THRESHOLD_;
  for (const name of Object.keys(env)) if (name.startsWith('npm_')) delete env[name];
  return env;
}

describe('a host npm started', () => {
  it('ends, cleanly, when SIGTERM is sent to `npx vitrine serve`', async () => {
    const specimens = await makeSpecimensDir();
    const { child, url, output } = await startLogged(
      'npx',
      ['--yes', 'vitrine', 'serve', '--port', '0', '--data-dir', 'none', '--specimens', specimens, '--plugins', join(specimens, 'none')],
      userEnv(),
    );
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
    child.kill('SIGTERM');
    await waitFor(() => portClosed(url), 'the host to close its port after npx ended');
    await waitFor(() => (output().includes('SIGTERM: shutting down') ? true : undefined), 'the host to say it shuts down');
  });

  it('ends when the shell npm runs a script in is killed (`npm start` chains commands)', async () => {
    const specimens = await makeSpecimensDir();
    const env = { ...userEnv(), npm_lifecycle_event: 'start' };
    const script =
      `${JSON.stringify(process.execPath)} ${JSON.stringify(CLI)} serve --port 0 --data-dir none --specimens ${JSON.stringify(specimens)} ` +
      `--plugins ${JSON.stringify(join(specimens, 'none'))}; true`;
    const { child, url } = await startLogged('/bin/sh', ['-c', script], env);
    child.kill('SIGKILL');
    await waitFor(() => portClosed(url), 'the host to close its port after its shell ended');
  });
});

describe('vitrine --version', () => {
  it('prints the package version', () => {
    const version = (JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { version: string }).version;
    const out = spawnSync(process.execPath, [CLI, '--version'], { encoding: 'utf8' });
    expect(out.status).toBe(0);
    expect(out.stdout).toBe(`${version}\n`);
  });
});
