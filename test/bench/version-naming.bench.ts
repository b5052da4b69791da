/**
 * @module version-naming.bench
 * `npm run bench version-naming`: what naming an edited labels layer's version costs, in one
 * process, beside what naming it by its bytes cost. A 512³ uint32 volume (`NAMING_SIZE` to
 * change) takes 100 paints of radius 8 at seeded centres; after each, the version's id is worked
 * out from the chunks that differ from the base (version-name.ts), and timed. Then the whole
 * version is hashed once as a result, as every version was before. Prints p50, p99 and max of
 * the naming, the whole hash, their ratio and the load average.
 */
import { loadavg } from 'node:os';
import { LabelVolume, sharedLabels } from '../../core/edits/label-volume.ts';
import { LayerEdits } from '../../core/edits/layer-edits.ts';
import { tablesOf } from '../../core/edits/label-tables.ts';
import { ChunkDigests, versionName } from '../../core/edits/version-name.ts';
import { versionVoxels } from '../../core/edits/version-voxels.ts';
import { computeResultId } from '../../core/results/result-id.ts';
import { fmt, percentile } from './host-helpers.ts';
import { seededRandom } from '../helpers/seeded-random.ts';

const SIZE = Number(process.env.NAMING_SIZE ?? 512);
const PAINTS = 100;
const load = () => loadavg().map((v) => v.toFixed(2)).join(' ');

export async function run(): Promise<{ name: string; lines: string[] }> {
  const lines = [`load average at start: ${load()}`];
  const n = SIZE;
  const data = sharedLabels('uint32', n * n * n) as Uint32Array;
  // Cells of 32 voxels along x, a thousand ids: what a paint lands on is a segment.
  for (let i = 0; i < data.length; i++) data[i] = 1 + ((i >> 5) % 1000);
  const edits = new LayerEdits(new LabelVolume(data, [n, n, n], 'uint32'), tablesOf());
  const digests = new ChunkDigests(edits.volume);
  const rand = seededRandom(87);
  const named: number[] = [];
  for (let k = 0; k < PAINTS; k++) {
    const centre = [0, 0, 0].map(() => 8 + Math.floor(rand() * (n - 16))) as [number, number, number];
    const planned = edits.plan({ op: 'paint', label: 5000 + k, center: centre, radius: 8 });
    const { segments, voxels, box } = planned;
    edits.apply(planned, { seq: k + 1, ts: 0, by: 'bench', layer: 'seg', version: k + 1, edit: planned.edit, segments, voxels, box });
    const started = performance.now();
    versionName('0'.repeat(64), null, digests.differing());
    named.push(performance.now() - started);
  }
  const version = versionVoxels(edits.versionTask(edits.version));
  const started = performance.now();
  computeResultId({ type: 'volume', data: version, shape: [n, n, n], dtype: 'uint32' } as Parameters<typeof computeResultId>[0]);
  const whole = performance.now() - started;
  const p50 = percentile(named, 50);
  lines.push(
    `${n}³ uint32, ${PAINTS} paints of radius 8 (${edits.volume.ownChunks} chunks written): a version named from its changed chunks ` +
      `p50 ${fmt(p50, 1)} ms, p99 ${fmt(percentile(named, 99), 1)} ms, max ${fmt(Math.max(...named), 1)} ms`,
    `the whole version hashed once: ${fmt(whole, 0)} ms (${fmt(whole / p50, 0)}× the naming's p50)`,
    `load average at end: ${load()}`,
  );
  return { name: `naming an edited ${n}³ version`, lines };
}
