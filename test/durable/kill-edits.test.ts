/**
 * @module kill-edits.test
 * Edits of a labels layer survive `kill -9`: a host on a data folder is killed at a random
 * moment while three editors paint as fast as it answers; started again on the same folder,
 * every acknowledged edit is in the layer's edits at the version it was answered with, and in
 * the room's log at its seq (kind `labels.edit`), and nothing is in one without the other. The
 * layer's labels at the last version are the base with every kept edit applied (a voxel of
 * each acknowledged paint that nothing later painted holds its label). VITRINE_EDIT_ROUNDS sets
 * how many kills (3 in the suite; `npm run bench kill-edits` runs 20).
 *
 * Each round is a host start and little else, so the host is as small as the test allows: no
 * plugins (nothing to build or load), one static segmentation of 32^3 voxels as the specimen
 * the layer shows (read from its file, not computed), the layer added once and its data folder
 * kept from round to round, and every wait one on an answer rather than a sleep. What is left
 * is the host's own start, about 4 s a round in the suite: the suite kills 3 times (a kill lands
 * at a different moment each round), and the bench's 20 rounds look for what is rarer.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { encodeNpy } from '../../core/formats/npy/encode-npy.ts';
import type { VolumeResult } from '../../core/sdk/result-types.ts';
import { atFileEnd } from '../helpers/file-end.ts';
import { seededRandom } from '../helpers/seeded-random.ts';
import { spawnHost, type RunningHost } from '../helpers/spawn-host.ts';
import { tempDataDir } from '../helpers/temp-data-store.ts';
import { waitFor } from '../helpers/wait-for.ts';
import { decodeEnvelope, type DecodedVolume } from '../../core/envelope/decode-envelope.ts';

const ROUNDS = Number(process.env.VITRINE_EDIT_ROUNDS ?? 3);
const ROOM = 'kill-edits';
const SIZE = 32;
const LAYER = { id: 'seg', source: { specimen: 'seg' }, kind: 'labels' };

interface Acked {
  seq: number;
  version: number;
  label: number;
  voxel: [number, number, number];
}

/** A folder with no plugins, and a specimens folder holding one uint16 segmentation: eight blocks of labels 100..800. */
async function makeFolders(): Promise<{ plugins: string; specimens: string }> {
  const root = await mkdtemp(join(tmpdir(), 'vitrine-kill-edits-'));
  atFileEnd(() => rm(root, { recursive: true, force: true }));
  const [plugins, seg] = [join(root, 'plugins'), join(root, 'specimens', 'seg')];
  await mkdir(plugins);
  await mkdir(seg, { recursive: true });
  const data = new Uint16Array(SIZE ** 3);
  const half = SIZE / 2;
  for (let z = 0; z < SIZE; z++)
    for (let y = 0; y < SIZE; y++)
      for (let x = 0; x < SIZE; x++) data[(z * SIZE + y) * SIZE + x] = 100 * (1 + (z >= half ? 4 : 0) + (y >= half ? 2 : 0) + (x >= half ? 1 : 0));
  await writeFile(join(seg, 'specimen.json'), JSON.stringify({ display_name: 'Blocks', type: 'volume', data_file: 'seg.npy' }));
  await writeFile(join(seg, 'seg.npy'), encodeNpy({ shape: [SIZE, SIZE, SIZE], dtype: 'uint16', data } as VolumeResult));
  await writeFile(join(seg, 'seg.json'), JSON.stringify({ labels: true }));
  return { plugins, specimens: join(root, 'specimens') };
}

function start(dir: string, folders: { plugins: string; specimens: string }): Promise<RunningHost> {
  const { plugins, specimens } = folders;
  const flags = ['--pool-size', '1', '--no-viewer', '--log-level', 'warn'];
  return spawnHost(['--port', '0', '--plugins', plugins, '--specimens', specimens, '--data-dir', dir, ...flags]);
}

const post = (url: string, path: string, body: unknown) =>
  fetch(`${url}/api/rooms/${ROOM}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

/** Editors painting one voxel each time with a label of their own, noting every answer. */
function startEditors(url: string, acked: Acked[], next: { label: number }, rand: () => number): Promise<void> {
  const editor = async () => {
    for (;;) {
      const label = next.label++;
      const voxel: [number, number, number] = [0, 1, 2].map(() => Math.floor(rand() * SIZE)) as [number, number, number];
      try {
        const answer = await post(url, '/layers/seg/edits', { op: 'paint', label, voxels: [voxel] });
        if (answer.status !== 201) continue;
        const body = (await answer.json()) as { seq: number; version: number };
        acked.push({ seq: body.seq, version: body.version, label, voxel });
      } catch {
        return; // The host is gone.
      }
    }
  };
  return Promise.all([editor(), editor(), editor()]).then(() => undefined);
}

async function check(url: string, acked: Acked[]): Promise<number> {
  type Listed = { edits: { seq: number; version: number; edit: { label: number } }[] };
  type Log = { entries: { seq: number; type: string; version?: number }[] };
  const listed = (await (await fetch(`${url}/api/rooms/${ROOM}/layers/seg/edits?limit=10000`)).json()) as Listed;
  const log = (await (await fetch(`${url}/api/rooms/${ROOM}/log?limit=10000`)).json()) as Log;
  const logged = log.entries.filter((e) => e.type === 'labels.edit');
  // One edit per version, 1..N with no gap, each with its log entry, and the log with no entry of its own.
  expect(listed.edits.map((e) => e.version)).toEqual(listed.edits.map((_, i) => i + 1));
  expect(logged.map((e) => [e.seq, e.version])).toEqual(listed.edits.map((e) => [e.seq, e.version]));
  const byVersion = new Map(listed.edits.map((e) => [e.version, e]));
  for (const a of acked) expect(byVersion.get(a.version)).toMatchObject({ seq: a.seq, edit: { label: a.label } });
  // The labels now: each acknowledged paint's voxel holds the label of the last kept edit that painted it.
  const response = await fetch(`${url}/api/rooms/${ROOM}/layers/seg/labels`);
  const volume = decodeEnvelope(new Uint8Array(await response.arrayBuffer())) as DecodedVolume;
  const last = new Map<number, number>();
  for (const e of listed.edits) {
    const [z, y, x] = (e.edit as unknown as { voxels: [number, number, number][] }).voxels[0]!;
    last.set((z * SIZE + y) * SIZE + x, e.edit.label);
  }
  for (const [i, label] of last) expect(volume.data[i]).toBe(label);
  return listed.edits.length;
}

describe('a host killed while editors paint a labels layer', () => {
  it(`keeps every acknowledged edit and its log entry, ${ROUNDS} times`, async () => {
    const dir = tempDataDir();
    const rand = seededRandom(Date.now() % 100_000);
    const folders = await makeFolders();
    let host = await start(dir, folders);
    expect((await post(host.url, '/layers', LAYER)).status).toBe(201);
    const acked: Acked[] = [];
    const next = { label: 1000 };
    let kept = 0;
    const rounds: number[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      const began = performance.now();
      const editors = startEditors(host.url, acked, next, rand);
      const killAt = acked.length + 5 + Math.floor(rand() * 40);
      await waitFor(() => (acked.length >= killAt ? true : undefined), `${killAt} edits answered`);
      await host.stop('SIGKILL');
      await editors;
      host = await start(dir, folders);
      kept = await check(host.url, acked);
      rounds.push(performance.now() - began);
    }
    await host.stop();
    const median = rounds.sort((a, b) => a - b)[Math.floor(rounds.length / 2)]!;
    const answered = `${acked.length} edits answered, ${kept} kept`;
    console.log(`kill -9, ${ROUNDS} rounds: ${answered}; 0 missing from the layer or the log; median round ${(median / 1000).toFixed(2)} s`);
  }, Math.max(300_000, ROUNDS * 60_000));
});
