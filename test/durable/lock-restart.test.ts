/**
 * @module lock-restart.test
 * A supervisor that starts a new host the moment after kill -9: the killed host's lock on the
 * data folder must not refuse it. The killed host lingers until its parent collects it (a
 * zombie; here the parent is a `sleep` that never does, so it lingers every time, where a
 * supervisor's race would only sometimes lose). Each round adds a mark, so the new host is seen
 * to serve the same folder with every mark before it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ALLOCATOR_ENV } from '../../core/cli/allocator-env.ts';
import { CLI, REPO } from '../helpers/cli-path.ts';
import { withDataDir } from '../helpers/spawn-host.ts';

const ROUNDS = 3;
const ARGS = ['--port', '0', '--plugins', 'none', '--specimens', 'none', '--no-viewer', '--pool-size', '1', '--log-level', 'warn'];
const json = (body: unknown) => ({ method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

/** Parents left sleeping (each holds its killed host as a zombie), ended after each test. */
const parents: ChildProcess[] = [];
afterEach(() => {
  for (const parent of parents.splice(0)) parent.kill('SIGKILL');
});

/** A host on `dir` whose parent never collects it; resolves with its url and pid once it listens. */
function unreapedHost(dir: string): Promise<{ url: string; pid: number }> {
  // sh starts the host in the background and becomes `sleep`, which never waits for a child.
  const parent = spawn('sh', ['-c', '"$0" "$@" & exec sleep 600', process.execPath, CLI, 'serve', ...ARGS, '--data-dir', dir], {
    cwd: REPO,
    env: { ...process.env, ...ALLOCATOR_ENV },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  parents.push(parent);
  let out = '';
  let err = '';
  parent.stderr!.on('data', (text: Buffer) => void (err += text.toString()));
  return new Promise((resolve, reject) => {
    parent.stdout!.on('data', (text: Buffer) => {
      out += text.toString();
      const url = /listening on (http:\/\/\S+)/.exec(out)?.[1];
      // The lock names the host's pid (written before it listens).
      if (url) resolve({ url, pid: Number(readFileSync(path.join(dir, 'lock'), 'utf8').split('\n')[0]) });
    });
    parent.once('exit', () => reject(new Error(`the host ended before listening:\n${out}\n${err}`)));
    // A host refused prints its reason and exits; its parent sleeps on, so its output tells.
    parent.stderr!.on('data', () => {
      if (/in use by another vitrine host/.test(err)) reject(new Error(err));
    });
  });
}

/** Adds a mark to the room `kept`, and answers how many it now holds. */
async function addMark(url: string, round: number): Promise<number> {
  const added = await fetch(`${url}/api/rooms/kept/annotations`, json({ kind: 'point', points: [[round, 0, 0]] }));
  expect(added.status).toBe(201);
  const list = (await (await fetch(`${url}/api/rooms/kept/annotations`)).json()) as { annotations: unknown[] };
  return list.annotations.length;
}

describe('a host started again the moment after kill -9 on the same data folder', () => {
  it(`starts while the killed host is a zombie its parent has not collected, ${ROUNDS} rounds`, async () => {
    const { dataDir } = withDataDir([]);
    let host = await unreapedHost(dataDir);
    for (let round = 1; round <= ROUNDS; round++) {
      expect(await addMark(host.url, round)).toBe(round);
      process.kill(host.pid, 'SIGKILL');
      host = await unreapedHost(dataDir);
    }
    expect(await addMark(host.url, ROUNDS + 1)).toBe(ROUNDS + 1);
    process.kill(host.pid, 'SIGKILL');
  });

});
