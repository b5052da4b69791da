/**
 * @module lod-large
 * The large part of `npm run bench meshes`: one segment of at least 60 million level-0
 * triangles (one side of a gyroid filling a 320³ uint8 volume; its triangles counted
 * beforehand, two a voxel face), asked of a host with `--cache-max-bytes` 4 GiB. The host must
 * build its levels in pieces or refuse them at once, keeping its peak resident memory (VmHWM)
 * within 1.5 × `--cache-max-bytes` + 300 MiB; a second ask is answered at once, from what the
 * first left (the set, or its refusal); `/healthz` is asked every 100 ms from a thread of its
 * own throughout. `MESHES_ONLY=large` runs this part alone.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { buildLabelIndex } from '../../core/labels/label-index.ts';
import { encodeNpy } from '../../core/formats/npy/encode-npy.ts';
import { peakRssMiB } from '../helpers/process-rss.ts';
import { spawnHost } from '../helpers/spawn-host.ts';
import { fetchTimed } from './lod-build.ts';
import { fmt, percentile } from './host-helpers.ts';
import { healthzWhile } from './probe/kept-work.ts';
import { LOOP_DELAY_PRELOAD, loopDelay } from './loop-delay.ts';

const SIDE = 320;
const LEAST_TRIANGLES = 60e6;
const CACHE = 4 * 2 ** 30;

/** Label 1 where a gyroid of `period` voxels is positive, 2 elsewhere. */
function gyroid(period: number): Uint8Array {
  const data = new Uint8Array(SIDE ** 3);
  const w = (2 * Math.PI) / period;
  for (let z = 0; z < SIDE; z++)
    for (let y = 0; y < SIDE; y++)
      for (let x = 0; x < SIDE; x++) {
        const g = Math.sin(w * x) * Math.cos(w * y) + Math.sin(w * y) * Math.cos(w * z) + Math.sin(w * z) * Math.cos(w * x);
        data[(z * SIDE + y) * SIDE + x] = g > 0 ? 1 : 2;
      }
  return data;
}

export async function largeSegment(): Promise<string[]> {
  let period = 5;
  let data = gyroid(period);
  // Label 1's faces, as the host's label index counts them (two triangles each).
  const trianglesOf = (volume: Uint8Array) => 2 * buildLabelIndex(volume, [SIDE, SIDE, SIDE], 2).faces[0]!;
  let triangles = trianglesOf(data);
  while (triangles < LEAST_TRIANGLES) {
    period *= 0.95;
    data = gyroid(period);
    triangles = trianglesOf(data);
  }
  const bound = (1.5 * CACHE) / 2 ** 20 + 300;
  const dir = mkdtempSync(path.join(tmpdir(), 'vitrine-large-'));
  const delays = path.join(dir, 'loop-delay.json');
  const args = ['--port', '0', '--log-level', 'warn', '--cache-max-bytes', String(CACHE), '--max-upload-bytes', String(2 ** 30)];
  const host = await spawnHost(args, { nodeArgs: ['--import', LOOP_DELAY_PRELOAD], env: { LOOP_DELAY_FILE: delays } });
  try {
    const npy = encodeNpy({ shape: [SIDE, SIDE, SIDE], dtype: 'uint8', data } as never);
    const put = await fetchTimed(`${host.url}/api/specimens/gyroid?filename=gyroid.npy&role=labels`, {
      method: 'PUT',
      headers: { 'content-type': 'application/octet-stream' },
      body: npy,
    });
    if (put.status !== 201) throw new Error(`publishing: ${put.status} ${put.body.toString()}`);
    const id = String((await fetchTimed(`${host.url}/api/specimens/gyroid/data`)).headers['x-result-id']);
    const sidecar = `${host.url}/api/results/${id}/meshes/1.json`;
    await loopDelay(host, delays);
    const asks = (async () => ({ first: await fetchTimed(sidecar), second: await fetchTimed(sidecar) }))();
    const healthz = await healthzWhile(host, asks, 100);
    const { first, second } = await asks;
    const said = (answer: typeof first): string => {
      const body = JSON.parse(answer.body.toString()) as { code?: string; detail?: string; level_triangles?: number[] };
      return answer.status === 200 ? `levels ${body.level_triangles!.join(', ')}` : `${body.code}: ${body.detail}`;
    };
    const peak = peakRssMiB(host.child.pid!);
    // The longest turn split into the main thread's CPU and its wait for a core: a loaded machine told apart from a host that blocks.
    const loop = await loopDelay(host, delays);
    return [
      `large segment (load average ${loadavg().map((n) => n.toFixed(1)).join(' ')} at the end of its part)`,
      `large segment: one side of a gyroid of period ${fmt(period, 2)} voxels in a ${SIDE}³ uint8 volume, ` +
        `${fmt(triangles / 1e6)} M level-0 triangles (target ≥ 60 M)`,
      `  first ask of its levels: ${first.status} in ${fmt(first.ms / 1000, 2)} s (built, or refused at once): ${said(first)}`,
      `  second ask: ${second.status} in ${fmt(second.ms, 0)} ms (target: at once, the same answer): ${said(second)}`,
      `  host peak RSS (VmHWM) ${fmt(peak, 0)} MiB (target ≤ 1.5 × --cache-max-bytes + 300 MiB = ${fmt(bound, 0)} MiB)`,
      `  /healthz throughout, every 100 ms: p50 ${fmt(percentile(healthz, 50), 0)} ms, ` +
        `max ${fmt(Math.max(0, ...healthz), 0)} ms (target ≤ 250; ${healthz.length} asked); the host's ${loop}`,
    ];
  } finally {
    await host.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
