/**
 * @module meshes.bench
 * `npm run bench meshes`: levels of detail of a generated segmentation whose level-0 surfaces
 * total at least 10 million triangles (a 448³ uint8 volume cut by wavy surfaces into 4 × 4 × 4
 * cells, 64 segments, published as labels), on a host process. In the same run:
 * 1. the build: every segment's level set asked at once, four at a time (the encode threads
 *    build them), its wall time and level-0 triangles a second, and per CPU second (the host's
 *    CPU time over the build: the machine is shared, and an encode thread runs at a lower
 *    priority than everything else on it, so wall time says more of the load than of the
 *    code); `/healthz` polled from a thread of its own throughout, the host's event-loop delay
 *    and its main thread's CPU time, its stretches busy over 40 ms (`--cpu-prof`), and its
 *    resident memory sampled;
 * 2. the baseline: meshoptimizer's simplifier alone on the same surfaces (made in this process
 *    by the same surface nets), the same chain of quarter steps, in triangles a second of wall
 *    time and of CPU time;
 * 3. the first picture on the headset profile through a 5 MB/s link (the existing throttle,
 *    six connections sharing it as a browser's do): `segments.json`, every segment's sidecar and
 *    the coarsest fragments of every segment (all are in view), as the viewer asks them;
 * 4. a Godot headset's `/data` of every segment's surface (`segment=all`) through the same link:
 *    the finest level within `--headset-triangles`, its triangles and time;
 * 5. the viewer's first picture and fly-through in the page and in WebXR (lod-fly-through.ts).
 * 6. a segment of at least 60 million level-0 triangles on a host of its own (lod-large.ts):
 *    built in pieces or refused at once, within the host's memory bound, asked twice.
 * MESHES_ONLY=page runs the fifth alone, MESHES_ONLY=large the sixth, every set built first unmeasured (a quicker try of the page).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { encodeNpy } from '../../core/formats/npy/encode-npy.ts';
import { labelSource } from '../../core/meshes/lod-sources.ts';
import { simplifyMesh } from '../../core/geometry/simplify-mesh.ts';
import { buildLabelIndex } from '../../core/labels/label-index.ts';
import { rssMiB } from '../helpers/process-rss.ts';
import { spawnHost } from '../helpers/spawn-host.ts';
import type { Window } from './busy-stretches.ts';
import { LOOP_DELAY_PRELOAD } from './loop-delay.ts';
import { fetchTimed, inTurns, mainThreadStretches, measureBuild, type Sidecar } from './lod-build.ts';
import { fmt } from './host-helpers.ts';
import { startThrottledLink } from './throttled-link.ts';
import { flyThrough } from './lod-fly-through.ts';
import { largeSegment } from './lod-large.ts';

const SIDE = 448;
const LINK = 5 * 1024 * 1024;
const GODOT = { 'user-agent': 'GodotEngine/4.3.stable.official (Linux)', 'accept-encoding': 'gzip' };

/** Wavy cells: the volume cut 4 × 4 × 4 by surfaces bent by a few waves, each cell a segment (1..64). */
function partition(): Uint8Array {
  const cell = SIDE / 4;
  const at = (v: number) => Math.max(0, Math.min(3, Math.floor(v / cell)));
  const data = new Uint8Array(SIDE ** 3);
  for (let z = 0; z < SIDE; z++)
    for (let y = 0; y < SIDE; y++)
      for (let x = 0; x < SIDE; x++) {
        const ix = at(x + 7 * Math.sin(y / 9) * Math.cos(z / 13));
        const iy = at(y + 7 * Math.sin(z / 8) * Math.cos(x / 11));
        const iz = at(z + 7 * Math.sin(x / 10) * Math.cos(y / 7));
        data[(z * SIDE + y) * SIDE + x] = 1 + ix + 4 * iy + 16 * iz;
      }
  return data;
}

export async function run(): Promise<{ name: string; lines: string[] }> {
  const lines: string[] = [`load average at start ${loadavg().map((n) => n.toFixed(1)).join(' ')}`];
  if (process.env.MESHES_ONLY === 'large') return { name: 'meshes: a segment of 60 million triangles alone', lines: [...lines, ...(await largeSegment())] };
  const data = partition();
  const args = ['--port', '0', '--log-level', 'warn', '--cache-max-bytes', String(3 * 2 ** 30), '--max-upload-bytes', String(2 ** 30)];
  const profiles = mkdtempSync(path.join(tmpdir(), 'vitrine-meshes-prof-'));
  const delays = path.join(profiles, 'loop-delay.json');
  const nodeArgs = ['--cpu-prof', `--cpu-prof-dir=${profiles}`, '--import', LOOP_DELAY_PRELOAD];
  const host = await spawnHost(args, { nodeArgs, env: { LOOP_DELAY_FILE: delays } });
  let window: Window | null = null;
  try {
    const npy = encodeNpy({ shape: [SIDE, SIDE, SIDE], dtype: 'uint8', data } as never);
    const put = await fetchTimed(`${host.url}/api/specimens/cells?filename=cells.npy&role=labels`, {
      method: 'PUT',
      headers: { 'content-type': 'application/octet-stream' },
      body: npy,
    });
    if (put.status !== 201) throw new Error(`publishing: ${put.status} ${put.body.toString()}`);
    const answer = await fetchTimed(`${host.url}/api/specimens/cells/data`);
    const id = String(answer.headers['x-result-id']);
    const base = `${host.url}/api/results/${id}/meshes`;
    const ids = (JSON.parse((await fetchTimed(`${base}/segments.json`)).body.toString()) as { segments: { id: number }[] }).segments.map((s) => s.id);
    if (process.env.MESHES_ONLY === 'page') {
      await inTurns(ids, 4, (segment) => fetchTimed(`${base}/${segment}.json`));
      lines.push(...(await flyThrough(host, id)));
      return { name: 'meshes: the page\'s part alone', lines };
    }

    // 1. The build, /healthz, the event loop and memory watched throughout.
    lines.push(`volume ${SIDE}³ uint8, published as labels`);
    const build = await measureBuild(host, base, ids, delays);
    const { sidecars, seconds, cpu } = build;
    window = build.window;
    lines.push(...build.lines);
    const level0 = sidecars.reduce((n, s) => n + s.level_triangles[0]!, 0);

    // 2. meshoptimizer alone on the same surfaces, the same quarter steps.
    const volume = { type: 'volume' as const, data, shape: [SIDE, SIDE, SIDE], dtype: 'uint8' as const, labels: true };
    const index = buildLabelIndex(data, volume.shape);
    let simplified = 0;
    let simplifyMs = 0;
    let simplifyCpu = 0;
    for (const [k, segment] of ids.entries()) {
      const at = index.ids.indexOf(segment);
      const source = labelSource(volume as never, segment, index.boxes.subarray(at * 6, at * 6 + 6));
      let mesh = { type: 'mesh' as const, vertices: source.positions, indices: source.indices };
      const [t0, cpu0] = [performance.now(), process.cpuUsage()];
      for (let level = 1; level < sidecars[k]!.levels; level++) mesh = await simplifyMesh(mesh, Math.floor(mesh.indices.length / 12));
      simplifyMs += performance.now() - t0;
      const used = process.cpuUsage(cpu0);
      simplifyCpu += (used.user + used.system) / 1e6;
      simplified += source.indices.length / 3;
    }
    const wallRate = simplified / (simplifyMs / 1000);
    const cpuRate = simplified / simplifyCpu;
    lines.push(
      `meshoptimizer's simplifier alone, same surfaces and steps: ${fmt(wallRate / 1e3, 0)} k level-0 triangles/s of wall time, ` +
        `${fmt(cpuRate / 1e3, 0)} k per CPU second; the build (surface nets, cutting, Draco and GLB with it): ` +
        `${fmt(level0 / seconds / wallRate, 2)}× its rate in wall time, ${fmt(level0 / cpu / cpuRate, 2)}× per CPU second`,
    );

    // 3. The first picture through a 5 MB/s link, six connections sharing it.
    const link = await startThrottledLink(host.url, LINK, { shared: true });
    try {
      const far = `${link.url}/api/results/${id}/meshes`;
      const t0 = performance.now();
      const list = JSON.parse((await fetchTimed(`${far}/segments.json`)).body.toString()) as { segments: { id: number }[] };
      const cars = await inTurns(list.segments, 6, async (s) => JSON.parse((await fetchTimed(`${far}/${s.id}.json`)).body.toString()) as Sidecar);
      const roots = cars.flatMap((car) => car.coarsest.map((fragment) => fragment.glb));
      await inTurns(roots, 6, (path) => fetchTimed(`${far}/${path}`));
      const firstMs = performance.now() - t0;
      const triangles = cars.reduce((n, car) => n + car.coarsest.reduce((m, f) => m + f.triangles, 0), 0);
      lines.push(`first picture at 5 MB/s: ${fmt(firstMs, 0)} ms (target ≤ 500), ${fmt(link.bytes / 1e6, 3)} MB (target ≤ 0.8): ` +
        `${roots.length} coarsest fragments, ${triangles} triangles`);
      // 4. A Godot headset's /data of every surface.
      const before = link.bytes;
      const godot = await fetchTimed(`${link.url}/api/specimens/cells/data?segment=all`, { headers: GODOT });
      lines.push(`Godot /data segment=all at 5 MB/s: ${godot.status}, ${fmt(godot.ms, 0)} ms (target ≤ 2000), ${fmt((link.bytes - before) / 1e6, 2)} MB, ` +
        `the finest level within --headset-triangles (500000)`);
    } finally {
      await link.close();
    }
    lines.push(...(await flyThrough(host, id)));
    lines.push(`host RSS at the end ${fmt(rssMiB(host.child.pid!), 0)} MiB; load average ${loadavg().map((n) => n.toFixed(1)).join(' ')}`);
  } finally {
    await host.stop();
    lines.push(...mainThreadStretches(profiles, host.child.pid!, window));
    rmSync(profiles, { recursive: true, force: true });
  }
  // 6. A segment of at least 60 million triangles, on a host of its own.
  lines.push(...(await largeSegment()));
  return { name: 'meshes: levels of detail at 10 million triangles', lines };
}
