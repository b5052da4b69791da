/**
 * Level sets are kept where results are: a lone host with a data folder builds a segment's set
 * once, keeps it in the folder, and once started again on the folder serves the same files
 * (the segment's sidecar, manifest, Draco fragments and a GLB fragment) without building it
 * again, as its `/metrics` count of level sets built, found and kept says.
 */
import { describe, expect, it } from 'vitest';
import { encodeNpy } from '../../core/formats/npy/encode-npy.ts';
import { spawnHost, type RunningHost } from '../helpers/spawn-host.ts';
import { waitFor } from '../helpers/wait-for.ts';

const N = 64;

/** A wavy ball, label 5. */
function ball(): Buffer {
  const data = new Uint8Array(N * N * N);
  for (let z = 0; z < N; z++)
    for (let y = 0; y < N; y++)
      for (let x = 0; x < N; x++) if (Math.hypot(x - 32, y - 32, z - 32) + 2 * Math.sin(x / 3) * Math.cos(y / 4) < 28) data[(z * N + y) * N + x] = 5;
  return Buffer.from(encodeNpy({ shape: [N, N, N], dtype: 'uint8', data } as never));
}

/** The host's level-set counts from `/metrics`. */
async function levelSets(host: RunningHost): Promise<Record<string, number>> {
  const text = await (await fetch(`${host.url}/metrics`)).text();
  return Object.fromEntries([...text.matchAll(/^vitrine_mesh_level_sets\{how="(\w+)"\} (\d+)$/gm)].map((m) => [m[1]!, Number(m[2])]));
}

/** Every file of segment 5 a viewer or Neuroglancer reads, as bytes. */
async function files(host: RunningHost, id: string): Promise<Buffer[]> {
  const base = `${host.url}/api/results/${id}/meshes/5`;
  const sidecar = await fetch(`${base}.json`);
  expect(sidecar.status).toBe(200);
  const first = ((await sidecar.clone().json()) as { coarsest: { glb: string }[] }).coarsest[0]!.glb;
  const rest = await Promise.all([`${base}.index`, base, `${host.url}/api/results/${id}/meshes/${first}`].map((url) => fetch(url)));
  for (const answer of rest) expect(answer.status).toBe(200);
  return Promise.all([sidecar, ...rest].map(async (answer) => Buffer.from(await answer.arrayBuffer())));
}

describe('level sets in a data folder', () => {
  it('are served by a host started again on the folder without being built again', async () => {
    // No plugins or example specimens: the segment comes from an uploaded labels volume.
    const args = ['--port', '0', '--log-level', 'warn', '--mesh-lod-triangles', '1000', '--plugins', 'none', '--specimens', 'none'];
    const first = await spawnHost(args);
    const headers = { 'content-type': 'application/octet-stream' };
    const put = await fetch(`${first.url}/api/specimens/ball?filename=ball.npy&role=labels`, { method: 'PUT', headers, body: new Uint8Array(ball()) });
    expect(put.status, await put.text()).toBe(201);
    const id = String((await fetch(`${first.url}/api/specimens/ball/data`)).headers.get('x-result-id'));
    const before = await files(first, id);
    expect(await levelSets(first)).toEqual({ built: 1, found: 0, kept: expect.any(Number) });
    await waitFor(async () => ((await levelSets(first)).kept === 1 ? true : undefined), 'the level set to be kept in the data folder');
    await first.stop();

    const again = await spawnHost([...args, '--data-dir', first.dataDir]);
    try {
      // The page asks the specimen first, as a viewer does: the same result, by its id.
      expect((await fetch(`${again.url}/api/specimens/ball/data`)).headers.get('x-result-id')).toBe(id);
      const after = await files(again, id);
      expect(after.map((bytes) => bytes.toString('base64'))).toEqual(before.map((bytes) => bytes.toString('base64')));
      expect(await levelSets(again)).toEqual({ built: 0, found: 1, kept: 0 });
    } finally {
      await again.stop();
    }
  });
});
