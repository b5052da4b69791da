/**
 * @module edited-surfaces.bench
 * `npm run bench edited-surfaces`: the multi-resolution meshes of an edited segmentation. A
 * 128³ uint32 `label_blobs` of 40 blobs is a labels layer of a room on a host process; every
 * segment's manifest is asked (each level set built: the baseline). Then one edit erases a ball
 * inside one segment, over its voxels only, and in the same run:
 * 1. the edit answered, and the version made (`.../labels?version=1`);
 * 2. the changed segment's coarsest fragments (`{segment}.json`) ready after the edit, bound 1 s
 *    (and after the version was made: the whole version's voxels are made and hashed first);
 * 3. every segment's manifest under the version's result id: how many were built again (1),
 *    how many kept their bytes and ETag, and the time beside the baseline's.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CLI, REPO } from '../helpers/cli-path.ts';
import { spawnHost } from '../helpers/spawn-host.ts';
import { fmt } from './host-helpers.ts';

const BLOBS = { function: 'label_blobs', params: { size: 128, count: 40, dtype: 'uint32', stride: 1 } };

export async function run(): Promise<{ name: string; lines: string[] }> {
  const plugins = path.join(mkdtempSync(path.join(tmpdir(), 'vitrine-bench-edited-')), 'plugins');
  execFileSync(process.execPath, [CLI, 'build', path.join(REPO, 'test/fixtures/plugins'), '--out', plugins], { cwd: REPO });
  const host = await spawnHost(['--port', '0', '--plugins', plugins, '--log-level', 'warn', '--cache-max-bytes', '2000000000']);
  const lines: string[] = [];
  try {
    const json = { 'content-type': 'application/json' };
    const layers = `${host.url}/api/rooms/bench-edits/layers`;
    const made = await fetch(layers, { method: 'POST', headers: json, body: JSON.stringify({ id: 'seg', source: BLOBS, kind: 'labels' }) });
    if (made.status !== 201) throw new Error(`layer not made: ${made.status} ${await made.text()}`);
    const resultOf = async (query: string) => {
      const answer = await fetch(`${layers}/seg/labels${query}`);
      await answer.arrayBuffer();
      return answer.headers.get('x-result-id')!;
    };
    const built = async () => Number(/^vitrine_mesh_level_sets\{how="built"\} (\d+)$/m.exec(await (await fetch(`${host.url}/metrics`)).text())![1]);
    const manifests = async (id: string, segments: number[]) => {
      const started = performance.now();
      const out = new Map<number, { bytes: Buffer; etag: string | null }>();
      for (const s of segments) {
        const answer = await fetch(`${host.url}/api/results/${id}/meshes/${s}.index`);
        out.set(s, { bytes: Buffer.from(await answer.arrayBuffer()), etag: answer.headers.get('etag') });
      }
      return { out, ms: performance.now() - started };
    };

    const base = await resultOf('');
    const list = (await (await fetch(`${host.url}/api/results/${base}/meshes/segments.json`)).json()) as { segments: { id: number; voxels: number }[] };
    const segments = list.segments.map((s) => s.id);
    const before = await manifests(base, segments);
    const builtBase = await built();
    lines.push(`${segments.length} segments, every manifest built: ${fmt(before.ms)} ms (${builtBase} level sets built)`);

    // The largest segment, a ball erased at the centre of its box, over its voxels only.
    const target = list.segments.reduce((a, b) => (b.voxels > a.voxels ? b : a));
    const edited = performance.now();
    const edit = await fetch(`${layers}/seg/edits`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ op: 'paint', label: 0, center: await centreOf(host.url, base, target.id), radius: 8, only: target.id }),
    });
    const answered = performance.now() - edited;
    if (edit.status !== 201) throw new Error(`edit refused: ${edit.status} ${await edit.text()}`);
    const version = await resultOf('?version=1');
    const versionMade = performance.now() - edited;
    const sidecar = await fetch(`${host.url}/api/results/${version}/meshes/${target.id}.json`);
    await sidecar.arrayBuffer();
    const coarse = performance.now() - edited;
    lines.push(`edit answered ${fmt(answered)} ms; version made ${fmt(versionMade)} ms after the edit`);
    const sinceVersion = `${fmt(coarse - versionMade)} ms after the version was made`;
    const ready = `coarsest fragments ready ${fmt(coarse)} ms after the edit (bound 1000 ms), ${sinceVersion}`;
    lines.push(`changed segment ${target.id} (${target.voxels} voxels): ${ready}`);

    const after = await manifests(version, segments);
    const same = segments.filter((s) => after.out.get(s)!.bytes.equals(before.out.get(s)!.bytes) && after.out.get(s)!.etag === before.out.get(s)!.etag).length;
    lines.push(`every manifest of the version: ${fmt(after.ms)} ms (base build ${fmt(before.ms)} ms, ratio ${(after.ms / before.ms).toFixed(3)})`);
    lines.push(`level sets built after the edit: ${(await built()) - builtBase} (bound 1); same bytes and ETag: ${same} of ${segments.length - 1} untouched`);
  } finally {
    await host.stop();
  }
  return { name: 'edited surfaces', lines };
}

/** The voxel (z, y, x) at the centre of segment `id`'s box, from `segments.json` (physical) and the mesh transform. */
async function centreOf(url: string, id: string, segment: number): Promise<number[]> {
  type List = { transform: number[]; segments: { id: number; box: number[] }[] };
  const list = (await (await fetch(`${url}/api/results/${id}/meshes/segments.json`)).json()) as List;
  const { box } = list.segments.find((s) => s.id === segment)!;
  const t = list.transform;
  // x, y, z physical back to voxel column, row, slice.
  const [x, y, z] = [0, 1, 2].map((k) => Math.round(((box[k]! + box[k + 3]!) / 2 - t[k * 4 + 3]!) / t[k * 4 + k]!));
  return [z!, y!, x!];
}
