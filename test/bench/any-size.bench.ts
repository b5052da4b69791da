/**
 * @module any-size.bench
 * `npm run bench any-size`: results of any size over a 5 MB/s link (a loopback proxy that
 * paces every answer, throttled-link.ts). Results are computed and cached first (POST /start),
 * so the figures are delivery and drawing alone.
 * 1. A 1024x1024x512 uint16 volume from a plugin in the viewer (Chromium): time from the
 *    page asking to the first drawn frame of the coarse view, and from the coarse answer's
 *    first byte to that frame (a first viewer, which waits for the coarse variant to be made,
 *    and a second one); the full level's size and its transfer time at the link rate
 *    (waited for only with ANY_SIZE_FULL=1: about 3 minutes). Its OME-Zarr store: how many
 *    levels, the time to make the pyramid, and the two smallest levels read back with zarrita
 *    against the mean of the level above.
 * 2. A 2-million-triangle mesh in the viewer: first frame and full frame, against the raw
 *    envelope's transfer time (a first viewer and a second one).
 *    The coarse variant's making is timed apart too: the 2M-triangle mesh simplified to 20,000
 *    triangles in this process by grid clustering (what the host does for a reduction of ten
 *    times or more) and by edge collapse (what it did before).
 * ANY_SIZE_ONLY=volume,mesh,godot picks parts (the mesh alone takes about a minute).
 * The load average is printed: on a shared machine the one-off costs (computing, the
 * pyramid, simplifying) grow with it, since worker threads run at a lower priority.
 * 3. A Godot client (User-Agent GodotEngine/4.3, no options): the three volume shapes real
 *    sessions publish, the 2M-triangle mesh and the cinquefoil-knot GLB, each with its bytes,
 *    time to the last byte, delivered shape or triangle count.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import * as zarr from 'zarrita';
import { collapseMesh, simplifyMesh } from '../../core/geometry/simplify-mesh.ts';
import { decodeEnvelope, type DecodedMesh, type DecodedVolume } from '../../core/envelope/decode-envelope.ts';
import { launchBrowser } from '../browser/browser-session.ts';
import { CLI, REPO } from '../helpers/cli-path.ts';
import { spawnHost } from '../helpers/spawn-host.ts';
import { fmt } from './host-helpers.ts';
import { startThrottledLink } from './throttled-link.ts';

const RATE = 5_000_000;
const GODOT = { 'user-agent': 'GodotEngine/4.3.stable.official (Linux)' };
const VOLUME = { depth: 512, height: 1024, width: 1024, dtype: 'uint16' };
const MESH = { triangles: 2_000_000 };

function setup(): { plugins: string; specimens: string } {
  const root = mkdtempSync(path.join(tmpdir(), 'vitrine-bench-any-size-'));
  const plugins = path.join(root, 'plugins');
  execFileSync(process.execPath, [CLI, 'build', path.join(REPO, 'test/fixtures/plugins'), '--out', plugins], { cwd: REPO });
  const specimens = path.join(root, 'specimens');
  mkdirSync(specimens);
  cpSync(path.join(REPO, 'specimens/cinquefoil-knot'), path.join(specimens, 'cinquefoil-knot'), { recursive: true });
  for (const [id, type, fn] of [['big-volume', 'volume', 'sized_volume'], ['big-mesh', 'mesh', 'dense_mesh']]) {
    mkdirSync(path.join(specimens, id!));
    writeFileSync(path.join(specimens, id!, 'specimen.json'), JSON.stringify({ id, display_name: id, type, function_name: fn }));
  }
  return { plugins, specimens };
}

interface Fetched {
  body: Buffer;
  seconds: number;
  headers: Record<string, string | string[] | undefined>;
}

function fetchTimed(url: string, headers: Record<string, string> = {}): Promise<Fetched> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    request(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ body: Buffer.concat(chunks), seconds: (performance.now() - started) / 1000, headers: res.headers }));
      res.on('error', reject);
    })
      .on('error', reject)
      .end();
  });
}

/** Seconds to an answer's first byte, and its length (then the rest is dropped). */
function firstByte(url: string, headers: Record<string, string>): Promise<{ seconds: number; bytes: number }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    request(url, { headers }, (res) => {
      res.once('data', () => {
        resolve({ seconds: (performance.now() - started) / 1000, bytes: Number(res.headers['content-length']) });
        res.destroy();
      });
      res.on('error', reject);
    })
      .on('error', reject)
      .end();
  });
}

const dataPath = (id: string, params: object | null, room: string) =>
  `/api/specimens/${id}/data?${params ? `params=${encodeURIComponent(JSON.stringify(params))}&` : ''}room_id=${room}`;
const MB = (bytes: number) => (bytes < 1e6 ? `${fmt(bytes / 1e3, 0)} kB` : `${fmt(bytes / 1e6, 1)} MB`);

/** Computes and caches a specimen's result in `room` (a job, no bytes sent). */
async function precompute(base: string, id: string, params: object, room: string): Promise<number> {
  const started = performance.now();
  const start = (await (
    await fetch(`${base}/api/specimens/${id}/start`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ params, room_id: room }),
    })
  ).json()) as { job_id: string; status: string };
  for (;;) {
    const progress = (await (await fetch(`${base}/api/jobs/${start.job_id}/progress`)).json()) as { status: string; error: string | null };
    if (progress.status === 'done') return (performance.now() - started) / 1000;
    if (progress.status === 'error') throw new Error(`${id} failed: ${progress.error}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

interface ViewerTimes {
  firstFrame: number;
  fromAnswer: number;
  fullFrame: number | null;
  coarseBytes: number;
}

/** Opens the viewer through the link and times the coarse frame (and the full one when `waitFull`). */
async function viewerTimes(linkUrl: string, id: string, params: object, room: string, waitFull: boolean): Promise<ViewerTimes> {
  const browser = await launchBrowser();
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.addInitScript(() => {
      const marks: Record<string, number> = {};
      (window as unknown as { marks: typeof marks }).marks = marks;
      let frames = -1;
      new MutationObserver(() => {
        const canvas = document.querySelector<HTMLCanvasElement>('canvas.stage-canvas');
        const note = document.querySelector<HTMLElement>('[data-testid=refine-note]');
        const now = Number(canvas?.dataset.frames ?? -1);
        if (now === frames) return;
        frames = now;
        const state = document.querySelector<HTMLElement>('[data-testid=job-state]')?.dataset.state;
        if (note && !note.hidden && marks.coarse === undefined) marks.coarse = performance.now();
        if (note?.hidden && marks.coarse !== undefined && marks.full === undefined && (state === 'done' || state === 'cached')) marks.full = performance.now();
      }).observe(document, { subtree: true, attributes: true, attributeFilter: ['data-frames', 'hidden', 'data-state'] });
    });
    const query = new URLSearchParams({ specimen: id, room, params: JSON.stringify(params) });
    await page.goto(`${linkUrl}/?${query}`);
    await page.waitForFunction(() => (window as unknown as { marks: Record<string, number> }).marks.coarse !== undefined, null, { timeout: 120_000 });
    if (waitFull)
      await page.waitForFunction(() => (window as unknown as { marks: Record<string, number> }).marks.full !== undefined, null, {
        timeout: 600_000,
        polling: 500,
      });
    return await page.evaluate(() => {
      const marks = (window as unknown as { marks: Record<string, number> }).marks;
      const data = performance.getEntriesByType('resource').filter((e) => e.name.includes('/data?')) as PerformanceResourceTiming[];
      const coarse = data[0]!;
      return {
        firstFrame: marks.coarse! / 1000, fromAnswer: (marks.coarse! - coarse.responseStart) / 1000,
        fullFrame: marks.full === undefined ? null : marks.full / 1000, coarseBytes: coarse.encodedBodySize,
      };
    });
  } finally {
    await browser.close();
  }
}

/** Mean of 2x2x2 blocks (lone edge samples kept) of a C-order 3-axis array. */
function meanHalve(data: ArrayLike<number>, shape: number[]): Float64Array {
  const out = shape.map((n) => Math.ceil(n / 2));
  const result = new Float64Array(out[0]! * out[1]! * out[2]!);
  for (let z = 0; z < out[0]!; z++)
    for (let y = 0; y < out[1]!; y++)
      for (let x = 0; x < out[2]!; x++) {
        let sum = 0;
        let n = 0;
        for (let zz = 2 * z; zz < Math.min(shape[0]!, 2 * z + 2); zz++)
          for (let yy = 2 * y; yy < Math.min(shape[1]!, 2 * y + 2); yy++)
            for (let xx = 2 * x; xx < Math.min(shape[2]!, 2 * x + 2); xx++) {
              sum += data[(zz * shape[1]! + yy) * shape[2]! + xx]!;
              n++;
            }
        result[(z * out[1]! + y) * out[2]! + x] = sum / n;
      }
  return result;
}

async function storeFigures(base: string, resultId: string): Promise<string> {
  const started = performance.now();
  const attrs = (await (await fetch(`${base}/api/results/${resultId}.zarr/.zattrs`)).json()) as { multiscales: { datasets: { path: string }[] }[] };
  const made = (performance.now() - started) / 1000;
  const paths = attrs.multiscales[0]!.datasets.map((d) => d.path);
  const store = new zarr.FetchStore(`${base}/api/results/${resultId}.zarr`);
  const read = async (p: string) => zarr.get(await zarr.open.v2(zarr.root(store).resolve(p), { kind: 'array' }));
  const above = await read(paths.at(-2)!);
  const last = await read(paths.at(-1)!);
  const want = meanHalve(above.data as Uint16Array, above.shape);
  let worst = 0;
  (last.data as Uint16Array).forEach((v, i) => (worst = Math.max(worst, Math.abs(v - want[i]!))));
  const shapes = [];
  for (const p of paths)
    shapes.push(((await (await fetch(`${base}/api/results/${resultId}.zarr/${p}/.zarray`)).json()) as { shape: number[] }).shape.join('x'));
  return `OME-Zarr store: ${paths.length} levels (${shapes.join(', ')}), pyramid made in ${fmt(made)} s on first read; level ${paths.at(-1)} against the ` +
    `mean of level ${paths.at(-2)}: largest difference ${worst} (rounding: <= 0.5)`;
}

/** Seconds `make` takes, best of three (the first run also warms the code up). */
async function bestOf3(make: () => Promise<unknown>): Promise<number> {
  let best = Infinity;
  for (let i = 0; i < 3; i++) {
    const started = performance.now();
    await make();
    best = Math.min(best, (performance.now() - started) / 1000);
  }
  return best;
}

/** The 2M-triangle mesh (its envelope) simplified to the viewer's coarse budget, both ways. */
async function simplifyFigures(envelope: Buffer): Promise<string> {
  const decoded = decodeEnvelope(envelope) as DecodedMesh;
  const share = <T extends Float32Array | Uint32Array>(a: T): T => {
    const copy = new (a.constructor as new (b: SharedArrayBuffer) => T)(new SharedArrayBuffer(a.byteLength));
    copy.set(a);
    return copy;
  };
  const mesh = { type: 'mesh' as const, vertices: share(decoded.vertices), indices: share(decoded.indices) };
  const clustered = await simplifyMesh(mesh, 20_000);
  const collapsed = await collapseMesh(mesh, 20_000);
  const [cluster, collapse] = [await bestOf3(() => simplifyMesh(mesh, 20_000)), await bestOf3(() => collapseMesh(mesh, 20_000))];
  return (
    `2M-triangle mesh to the 20,000-triangle coarse budget, in this process (best of 3): grid clustering ${fmt(cluster)} s ` +
    `(${fmt(clustered.indices.length / 3, 0)} triangles), ` +
    `edge collapse ${fmt(collapse)} s (${fmt(collapsed.indices.length / 3, 0)} triangles); load average ${loadavg()
      .map((l) => fmt(l, 1))
      .join(' ')}`
  );
}

export async function run(): Promise<{ name: string; lines: string[] }> {
  const { plugins, specimens } = setup();
  const host = await spawnHost([
    '--port', '0', '--plugins', plugins, '--specimens', specimens, '--log-level', 'warn', '--cache-max-bytes', String(6e9), '--job-ttl', '3600', '--cache-ttl',
    '3600',
  ]);
  const link = await startThrottledLink(host.url, RATE);
  const lines = [
    `link: ${RATE / 1e6} MB/s per connection; viewer: Debian's Chromium (SwiftShader); results computed and cached before each measure; ` +
      `load average at start ${loadavg().map((l) => fmt(l, 1)).join(' ')} on ${cpus().length} cores`,
  ];
  const waitFull = process.env.ANY_SIZE_FULL === '1';
  // ANY_SIZE_ONLY=mesh (or volume, godot, comma-separated) runs those parts alone.
  const parts = (process.env.ANY_SIZE_ONLY ?? 'volume,mesh,godot').split(',');
  try {
    const meshRoom = 'any-size-mesh';
    // 1. The volume in the viewer, and its store.
    if (parts.includes('volume')) {
      const room = 'any-size-volume';
      const computed = await precompute(host.url, 'big-volume', VOLUME, room);
      const idFetch = await new Promise<{ id: string; length: number }>((resolve, reject) => {
        request(`${host.url}${dataPath('big-volume', VOLUME, room)}`, (res) => {
          resolve({ id: String(res.headers['x-result-id']), length: Number(res.headers['content-length']) });
          res.destroy();
        })
          .on('error', reject)
          .end();
      });
      const v = await viewerTimes(link.url, 'big-volume', VOLUME, room, waitFull);
      lines.push(
        `1024x1024x512 uint16 volume (computed in ${fmt(computed, 1)} s): viewer first frame ${fmt(v.firstFrame)} s after the page asked, ` +
        `${fmt(v.fromAnswer)} s after the coarse answer's first byte (${MB(v.coarseBytes)}); ` +
          (v.fullFrame === null
            ? `full level ${MB(idFetch.length)}: ${fmt(idFetch.length / RATE, 0)} s at the link rate (not waited for; ANY_SIZE_FULL=1 does)`
            : `full level drawn at ${fmt(v.fullFrame, 1)} s (${MB(idFetch.length)})`),
      );
      // Again: the coarse variant is made once per result; a second viewer gets it from the cache.
      const again = await viewerTimes(link.url, 'big-volume', VOLUME, room, false);
      lines.push(
        `  the same volume in a second viewer (coarse variant cached): first frame ${fmt(again.firstFrame)} s after the page asked, ` +
        `${fmt(again.fromAnswer)} s after the coarse answer's first byte`,
      );
      lines.push(await storeFigures(host.url, idFetch.id));
    }

    // 2. The mesh in the viewer.
    if (parts.includes('mesh')) {
      await precompute(host.url, 'big-mesh', MESH, meshRoom);
      const raw = await fetchTimed(`${host.url}${dataPath('big-mesh', MESH, meshRoom)}`);
      const m = await viewerTimes(link.url, 'big-mesh', MESH, meshRoom, true);
      lines.push(
        `2M-triangle mesh: viewer first frame ${fmt(m.firstFrame)} s after the page asked (${fmt(m.fromAnswer)} s after the coarse answer's first byte, ` +
        `${MB(m.coarseBytes)}), full mesh drawn at ${fmt(m.fullFrame ?? NaN)} s; ` +
          `raw envelope ${MB(raw.body.length)} = ${fmt(raw.body.length / RATE, 1)} s at the link rate`,
      );
      const m2 = await viewerTimes(link.url, 'big-mesh', MESH, meshRoom, true);
      lines.push(
        `  the same mesh in a second viewer (variants cached): first frame ${fmt(m2.firstFrame)} s after the page asked (${fmt(m2.fromAnswer)} s after ` +
        `the coarse answer's first byte), full mesh drawn at ${fmt(m2.fullFrame ?? NaN)} s`,
      );
      lines.push(await simplifyFigures(raw.body));
      // What the first viewer's full mesh waits for on the host: its meshopt GLB variant, made once.
      await precompute(host.url, 'big-mesh', MESH, `${meshRoom}-variant`);
      const glb = await firstByte(`${host.url}${dataPath('big-mesh', MESH, `${meshRoom}-variant`)}&format=glb&compress=meshopt`, {
        'accept-encoding': 'gzip, deflate, br',
      });
      lines.push(
        `  its full meshopt GLB variant (as the viewer asks for it), made on the host's encode thread: ` +
          `first byte after ${fmt(glb.seconds)} s, ${MB(glb.bytes)}; load average ${loadavg().map((l) => fmt(l, 1)).join(' ')}`,
      );
    }

    // 3. A Godot client, no options.
    if (parts.includes('godot')) {
      for (const shape of [
        { depth: 200, height: 1012, width: 456, dtype: 'uint8' }, { depth: 151, height: 302, width: 302, dtype: 'uint16' },
        { depth: 180, height: 512, width: 300, dtype: 'int16' }, { depth: 120, height: 300, width: 700, dtype: 'float64' },
      ]) {
        const r = `godot-${shape.dtype}`;
        await precompute(host.url, 'big-volume', shape, r);
        const got = await fetchTimed(`${link.url}${dataPath('big-volume', shape, r)}`, GODOT);
        const vol = decodeEnvelope(got.body) as DecodedVolume;
        lines.push(
          `Godot, ${shape.depth}x${shape.height}x${shape.width} ${shape.dtype}: ${vol.dtype} ${vol.shape.join('x')} spacing ` +
          `${vol.spacing?.map((s) => fmt(s, 2)).join('/')}, ${MB(got.body.length)} in ${fmt(got.seconds)} s`,
        );
      }
      const mesh = await fetchTimed(`${link.url}${dataPath('big-mesh', MESH, meshRoom)}`, GODOT);
      lines.push(
        `Godot, 2M-triangle mesh: ${fmt((decodeEnvelope(mesh.body) as DecodedMesh).indices.length / 3, 0)} triangles, ${MB(mesh.body.length)} in ` +
        `${fmt(mesh.seconds)} s`,
      );
      const knot = await fetchTimed(`${link.url}${dataPath('cinquefoil-knot', null, 'godot-knot')}`, GODOT);
      const count = knot.body.readUInt32LE(80);
      lines.push(
        `Godot, cinquefoil-knot (.glb): ${String(knot.headers['content-type'])}, ${String(knot.headers['content-disposition'])}, ${count} triangles, ` +
        `binary STL ${knot.body.length === 84 + 50 * count ? 'valid' : 'INVALID'} (${MB(knot.body.length)} in ${fmt(knot.seconds)} s)`,
      );
    }
  } catch (error) {
    // The figures so far still count; what stopped the rest is shown with the host's last words.
    lines.push(
      `stopped: ${String(error)}${error instanceof Error && error.cause ? ` (${String(error.cause)})` : ''}; host exit code ` +
        `${String(host.child.exitCode)}, signal ` +
        `${String(host.child.signalCode)}`,
      ...host.stderr().trim().split('\n').slice(-15),
    );
    process.exitCode = 1;
  } finally {
    await link.close();
    await host.stop('SIGTERM');
  }
  return { name: 'any size over a 5 MB/s link', lines };
}
