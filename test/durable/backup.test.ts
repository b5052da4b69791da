/**
 * @module backup.test
 * `vitrine backup` taken while clients write: the copy, served with `--data-dir OUT`, shows a
 * consistent state (every annotation of its version there, a batch all or none) and the
 * published specimens with their bytes; a backup refuses a folder that is not empty.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import type { AnnotationList } from '../../core/wire/scene-types.ts';
import { CLI, REPO } from '../helpers/cli-path.ts';
import { spawnHost } from '../helpers/spawn-host.ts';
import { binaryStl } from '../helpers/upload-files.ts';
import { waitFor } from '../helpers/wait-for.ts';

const BASE = ['--port', '0', '--specimens', 'none', '--plugins', 'none', '--pool-size', '1', '--log-level', 'warn'];
const run = promisify(execFile);

describe('vitrine backup', () => {
  it('copies a running host’s folder consistently while clients write, and the copy serves as it was', async () => {
    const root = mkdtempSync(path.join(tmpdir(), 'vitrine-backup-'));
    const dir = path.join(root, 'data');
    const out = path.join(root, 'copy');
    const host = await spawnHost([...BASE, '--data-dir', dir]);
    const stl = binaryStl();
    const octets = { 'content-type': 'application/octet-stream' };
    expect((await fetch(`${host.url}/api/specimens/cube?filename=cube.stl`, { method: 'PUT', headers: octets, body: new Uint8Array(stl) })).status).toBe(201);
    let stop = false;
    let acked = 0;
    const writers = Array.from({ length: 5 }, async (_, client) => {
      for (let i = 0; !stop; i++) {
        const batch = [0, 1, 2].map((k) => ({ kind: 'point', points: [[client, i, k]], label: `c${client}i${i}` }));
        const headers = { 'content-type': 'application/json' };
        const response = await fetch(`${host.url}/api/rooms/busy/annotations`, { method: 'POST', headers, body: JSON.stringify(batch) });
        if (response.status === 201) acked++;
      }
    });
    await waitFor(() => (acked >= 20 ? true : undefined), 'writes under way');
    const { stdout } = await run(process.execPath, [CLI, 'backup', '--data-dir', dir, out], { cwd: REPO });
    expect(stdout).toMatch(new RegExp(`backup: ${dir} -> ${out}, \\d+ files of bytes`));
    const before = acked;
    await waitFor(() => (acked >= before + 10 ? true : undefined), 'writes after the backup');
    stop = true;
    await Promise.all(writers);
    await host.stop();

    const copy = await spawnHost([...BASE, '--data-dir', out]);
    const list = (await (await fetch(`${copy.url}/api/rooms/busy/annotations`)).json()) as AnnotationList;
    // Only adds were made: a consistent copy holds exactly as many annotations as its version counts, in whole batches.
    expect(list.version).toBeGreaterThan(0);
    expect(list.annotations).toHaveLength(list.version);
    const perBatch = new Map<string, number>();
    for (const a of list.annotations) perBatch.set(a.label!, (perBatch.get(a.label!) ?? 0) + 1);
    expect([...perBatch.values()].every((n) => n === 3)).toBe(true);
    const original = (await (await fetch(`${copy.url}/api/specimens/cube`)).json()) as { id: string };
    expect(original.id).toBe('cube');
    expect((await fetch(`${copy.url}/api/specimens/cube/data?format=stl`)).status).toBe(200);
    await copy.stop();

    writeFileSync(path.join(root, 'copy', 'extra'), 'x');
    const again = run(process.execPath, [CLI, 'backup', '--data-dir', dir, out], { cwd: REPO });
    await expect(again).rejects.toMatchObject({ stderr: expect.stringContaining('is not empty') });
    rmSync(root, { recursive: true, force: true });
  });
});
