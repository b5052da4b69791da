/**
 * The lab walkthrough (docs/lab-setup.md) followed as written: its `sh` blocks, in order, run
 * in one bash (with -e and pipefail, so any step that fails fails the test) from the checkout,
 * with only the lab's folder and ports given through the variables the page reads. It starts a
 * real Redis, Swift with its S3 layer, memcached, two front-end hosts, a worker and two nginx,
 * and ends by reading one result through both hosts' caches, with the headers the host gave it
 * (its id, provenance and levels of detail), and a notebook's segment level through nginx. Whatever it started is stopped by
 * its own last step, and its process group is killed if a step failed before it.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from '../helpers/cli-path.ts';
import { freePort } from '../helpers/free-port.ts';

/** The page's `sh` blocks, in order (`console` blocks are what to install, never run). */
function shellBlocks(markdown: string): string[] {
  return [...markdown.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((match) => match[1]!);
}

/** The ports the page reads from the environment (each its default when unset). */
const PORTS = ['REDIS_PORT', 'MEMCACHED_PORT', 'S3_PORT', 'ACCOUNT_PORT', 'CONTAINER_PORT', 'OBJECT_PORT'];
PORTS.push('HOST_A_PORT', 'HOST_B_PORT', 'NGINX_A_PORT', 'NGINX_B_PORT');

describe('the lab walkthrough', () => {
  it('runs as written: a result computed by the worker reaches clients of both hosts through their nginx', async () => {
    const blocks = shellBlocks(readFileSync(join(REPO, 'docs/lab-setup.md'), 'utf8'));
    expect(blocks.length).toBeGreaterThanOrEqual(8);
    const lab = await mkdtemp(join(tmpdir(), 'vitrine-lab-'));
    const env: Record<string, string> = { ...(process.env as Record<string, string>), LAB: lab };
    for (const name of PORTS) env[name] = String(await freePort());
    const child = spawn('bash', ['-e', '-o', 'pipefail', '-c', blocks.join('\n')], { cwd: REPO, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => void (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => void (output += chunk.toString()));
    try {
      const code = await new Promise<number | null>((resolve) => child.once('exit', (status) => resolve(status)));
      const logs = await Promise.all(['host-A', 'host-B', 'worker'].map((name) => readFile(join(lab, `${name}.log`), 'utf8').catch(() => '')));
      expect(code, `${output}\n--- logs ---\n${logs.join('\n---\n')}`).toBe(0);
      expect(output).toMatch(/bucket vitrine-results is ready/);
      expect(output).toMatch(/x-blob-id: [0-9a-f]{16,}/i);
      expect(output).toMatch(/x-cache-status: (MISS|HIT)/i);
      // What the host said of the result reaches the client through nginx with the cached bytes.
      expect(output).toMatch(/^x-result-id: [0-9a-f]{64}\r?$/im);
      expect(output).toMatch(/^vitrine-provenance: scalar-volumes@\S+; bundle=[0-9a-f]{12}\r?$/im);
      expect(output).toMatch(/^vitrine-mesh-levels: \/api\/results\/[0-9a-f]{64}\/meshes\/\r?$/im);
      // A notebook through nginx gets a segment's level of detail.
      expect(Number(/segment 1 at level 0 through nginx: (\d+) triangles/.exec(output)?.[1])).toBeGreaterThan(0);
      const bytes = Number(/the same (\d+) bytes through both hosts/.exec(output)?.[1]);
      expect(bytes).toBeGreaterThan(64 ** 3);
      // The front ends computed nothing (--compute 0): the worker did, and neither host erred.
      for (const host of logs.slice(0, 2)) expect(host).not.toMatch(/"level":50|error/i);
    } finally {
      // A step that failed left the rest running: the page's own last step stops them (Swift's
      // servers leave the process group), then the group goes.
      await new Promise((resolve) => spawn('bash', ['-c', blocks.at(-1)!], { cwd: REPO, env, stdio: 'ignore' }).once('exit', resolve));
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // the group ended with its own last step
      }
      await rm(lab, { recursive: true, force: true });
    }
  });
});
