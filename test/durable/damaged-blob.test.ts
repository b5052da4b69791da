/**
 * @module damaged-blob.test
 * Bytes changed on disk are never served under the id that names other bytes: a blob of a lone
 * host's data folder is checked against its result id as it is read back into memory. A file
 * with one byte flipped reads as gone (moved aside, the same bytes can be written whole again);
 * over HTTP, after a restart, the blob's URL no longer answers 200 with the wrong bytes and the
 * snapshot pinning it says its bytes were lost.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DiskBlobStore } from '../../core/blobs/disk-blob-store.ts';
import type { StoredResult } from '../../core/results/stored-result.ts';
import { spawnFixtureHost } from '../helpers/fixture-host.ts';
import { openTempDataStore, tempDataDir } from '../helpers/temp-data-store.ts';

/** Flips one byte of `file` in its middle. */
function flipByte(file: string): void {
  const bytes = readFileSync(file);
  bytes[bytes.length >> 1]! ^= 0x01;
  writeFileSync(file, bytes);
}

const ARGS = ['--pool-size', '1', '--no-viewer', '--log-level', 'warn'];
const jsonBody = (method: string, body: unknown) => ({ method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

describe('a blob changed on disk', () => {
  it('reads as gone from the store, moved aside, and is written whole again', async () => {
    const store = await openTempDataStore();
    const blobs = new DiskBlobStore(store);
    const said: string[] = [];
    const warned = new DiskBlobStore(store, Date.now, (line) => said.push(line));
    const vertices = new Float32Array(3 * 4096).map((_, i) => i * 0.5);
    const result: StoredResult = { type: 'mesh', vertices, indices: new Uint32Array([0, 1, 2]) };
    const ref = await blobs.put(result, 60_000);
    expect(await blobs.get(ref)).not.toBeNull();
    flipByte(store.blobs.path(ref.hash));
    expect(await warned.get(ref)).toBeNull();
    expect(said.join('\n')).toContain(`the bytes of result ${ref.hash}`);
    expect(existsSync(`${store.blobs.path(ref.hash)}.damaged`)).toBe(true);
    expect(await blobs.touch(ref, 1)).toBe(false);
    // The same result put again is whole again.
    await blobs.put(result, 60_000);
    const back = await blobs.get(ref);
    expect(back?.type === 'mesh' && Array.from(back.vertices)).toEqual(Array.from(vertices));
    blobs.close();
    warned.close();
  });

  it('is not served under its id after a restart, and its snapshot says its bytes were lost', async () => {
    const dir = tempDataDir();
    let host = await spawnFixtureHost(['--data-dir', dir, ...ARGS]);
    expect((await fetch(`${host.url}/api/rooms/lab/entry`, jsonBody('PUT', { function: 'ramp', params: { n: 64 } }))).status).toBe(200);
    const taken = await fetch(`${host.url}/api/rooms/lab/snapshots`, { method: 'POST' });
    expect(taken.status).toBe(201);
    const { id } = (await taken.json()) as { id: string };
    const document = (await (await fetch(`${host.url}/api/snapshots/${id}`)).json()) as { scene: { layers: { result?: { blob_id?: string } }[] } };
    const blobId = document.scene.layers[0]?.result?.blob_id;
    expect(blobId).toMatch(/^[0-9a-f]{64}$/);
    await host.stop();
    flipByte(`${dir}/blobs/${blobId}`);

    host = await spawnFixtureHost(['--data-dir', dir, ...ARGS]);
    const blob = await fetch(`${host.url}/api/blobs/${blobId}`);
    expect(blob.status).not.toBe(200);
    await blob.arrayBuffer();
    const snapshot = await fetch(`${host.url}/api/snapshots/${id}`);
    expect(snapshot.status).toBe(410);
    expect(await snapshot.json()).toMatchObject({ code: 'SPC_ERR_SNAPSHOT_LOST' });
    await host.stop();
  });
});
