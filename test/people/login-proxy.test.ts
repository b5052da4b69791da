/**
 * @module login-proxy.test
 * `vitrine users` and `--trust-proxy` end to end, with real processes: the command adds a user to
 * a data dir and prints its token once; a host serving that data dir knows the user, and stops
 * knowing it the moment the command removes it. A login proxy process in front (forwarding from
 * 127.0.0.2, the one address the host trusts) names the user who made each mark; the same header
 * sent straight to the host from 127.0.0.1 is ignored. After it all, no token is in the host's
 * logs, its answers, its metrics, a snapshot of the room or the command's listing.
 */
import { execFile, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI, REPO } from '../helpers/cli-path.ts';
import { room } from '../helpers/room.ts';
import { spawnHost } from '../helpers/spawn-host.ts';
import { waitFor } from '../helpers/wait-for.ts';

const run = promisify(execFile);
const dataDir = await mkdtemp(join(tmpdir(), 'vitrine-login-'));
afterAll(() => rm(dataDir, { recursive: true, force: true }));

async function users(...args: string[]): Promise<{ stdout: string; stderr: string }> {
  return run(process.execPath, [CLI, 'users', ...args, '--data-dir', dataDir], { cwd: REPO });
}

const seen: string[] = [];
async function post(url: string, headers: Record<string, string>, body: unknown): Promise<Record<string, unknown>> {
  const response = await fetch(url, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const text = await response.text();
  seen.push(text);
  expect(response.status, text).toBe(201);
  return JSON.parse(text) as Record<string, unknown>;
}

async function startProxy(target: string): Promise<{ url: string; stop(): void }> {
  const child = spawn(process.execPath, [join(REPO, 'test/fixtures/people/login-proxy.mjs'), target, '127.0.0.2'], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout!.on('data', (chunk: Buffer) => void (out += chunk.toString()));
  const url = await waitFor(() => /proxy on (\S+)/.exec(out)?.[1], 'the login proxy to listen');
  return { url, stop: () => void child.kill('SIGTERM') };
}

describe('users and a login proxy, as processes', () => {
  it('adds, honours and removes users; believes the proxy and no one else; leaks no token', async () => {
    const added = await users('add', 'ada');
    const token = added.stdout.trim();
    expect(token).toMatch(/^vt_\S{43}$/);
    expect(added.stdout.split('\n').filter(Boolean)).toHaveLength(1);
    const admin = (await users('add', 'root', '--admin')).stdout.trim();

    const host = await spawnHost(['--port', '0', '--data-dir', dataDir, '--trust-proxy', '127.0.0.2', '--specimens', 'none', '--plugins', 'none']);
    const proxy = await startProxy(host.url);
    try {
      const r = room('proxy');
      const marks = `/api/rooms/${r}/annotations`;
      const mark = { kind: 'point', points: [[0, 0, 0]], author: 'mallory' };
      expect(await post(`${proxy.url}${marks}`, { 'x-login': 'grace' }, mark)).toMatchObject({ author: 'grace' });
      expect(await post(`${host.url}${marks}`, { 'x-forwarded-user': 'grace' }, mark)).toMatchObject({ author: 'mallory' });
      expect(await post(`${host.url}${marks}`, { authorization: `Bearer ${token}` }, mark)).toMatchObject({ author: 'ada' });

      const listed = await users('list');
      expect(listed.stdout).toMatch(/^ada\tuser\t.*\nroot\tadmin\t/);
      await users('remove', 'ada');
      const gone = await fetch(`${host.url}${marks}`, { headers: { authorization: `Bearer ${token}` } });
      expect(gone.status).toBe(401);
      seen.push(await gone.text(), listed.stdout, listed.stderr);
      const metrics = await fetch(`${host.url}/metrics`, { headers: { authorization: `Bearer ${admin}` } });
      expect(metrics.status).toBe(200);
      seen.push(await metrics.text(), await (await fetch(`${host.url}${marks}?format=csv`)).text());
      const snapshot = await fetch(`${host.url}/api/rooms/${r}/snapshots`, { method: 'POST', headers: { authorization: `Bearer ${admin}` } });
      expect(snapshot.status).toBe(201);
      const { id } = (await snapshot.json()) as { id: string };
      seen.push(id, await (await fetch(`${host.url}/api/snapshots/${id}`)).text());
    } finally {
      proxy.stop();
      await host.stop();
    }
    const everything = [...seen, host.stdout(), host.stderr()].join('\n');
    expect(everything).not.toContain(token);
    expect(everything).not.toContain(admin);
    expect(everything).not.toMatch(/vt_[A-Za-z0-9_-]{43}/);
  });
});
