/**
 * @module labels.bench
 * `npm run bench labels`: segment surfaces of a 256³ uint16 segmentation of 100 blobs
 * (`label_blobs` of test/fixtures/plugins/large-results), on a host process whose encode pool
 * has its default one thread. In the same run:
 * 1. the volume computed (a first `/data`), and a plain `/data` of it from the room cache (its
 *    32 MiB envelope): the baseline;
 * 2. the first segment surface (`segment=<first id>`, the label index made on the way), target
 *    at most 1 s;
 * 3. every one of the 100 segments, one after another (each surface made once), target at most
 *    10 s, and the same 100 again (cache hits);
 * 4. `segment=all` (every surface in one painted mesh) and a GLB export of one segment;
 * 5. the labels store's `.zattrs` (the pyramid, ids picked by mode) and a Godot client's uint8
 *    delivery (ids picked and renumbered).
 * The load average is printed: the encode thread runs at a lower priority than requests.
 */
import { execFileSync } from 'node:child_process';
import { request } from 'node:http';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { decodeEnvelope, type DecodedMesh } from '../../core/envelope/decode-envelope.ts';
import { CLI, REPO } from '../helpers/cli-path.ts';
import { spawnHost } from '../helpers/spawn-host.ts';
import { fmt } from './host-helpers.ts';

const PARAMS = encodeURIComponent(JSON.stringify({ size: 256, count: 100, dtype: 'uint16' }));

function fetchTimed(url: string, headers: Record<string, string> = {}): Promise<{ body: Buffer; ms: number; status: number }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    request(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ body: Buffer.concat(chunks), ms: performance.now() - started, status: res.statusCode ?? 0 }));
      res.on('error', reject);
    })
      .on('error', reject)
      .end();
  });
}

/** The fixture plugins built, and a specimens folder showing `label_blobs` as `blobs`. */
function setup(): { plugins: string; specimens: string } {
  const root = mkdtempSync(path.join(tmpdir(), 'vitrine-bench-labels-'));
  const plugins = path.join(root, 'plugins');
  execFileSync(process.execPath, [CLI, 'build', path.join(REPO, 'test/fixtures/plugins'), '--out', plugins], { cwd: REPO });
  const specimens = path.join(root, 'specimens');
  mkdirSync(path.join(specimens, 'blobs'), { recursive: true });
  writeFileSync(path.join(specimens, 'blobs', 'specimen.json'), JSON.stringify({ display_name: 'blobs', function_name: 'label_blobs' }));
  return { plugins, specimens };
}

export async function run(): Promise<{ name: string; lines: string[] }> {
  const { plugins, specimens } = setup();
  const host = await spawnHost(['--port', '0', '--plugins', plugins, '--specimens', specimens, '--log-level', 'warn', '--cache-max-bytes', '2000000000']);
  const lines: string[] = [`load average at start ${loadavg().map((n) => n.toFixed(1)).join(' ')}`];
  try {
    const data = (query = '', headers: Record<string, string> = {}) => fetchTimed(`${host.url}/api/specimens/blobs/data?params=${PARAMS}${query}`, headers);
    const computed = await data();
    const plain = await data();
    const volume = decodeEnvelope(plain.body);
    if (volume.type !== 'volume') throw new Error('label_blobs did not answer a volume');
    const ids = [...new Set(volume.data)].filter((id) => id !== 0).sort((a, b) => a - b);
    lines.push(
      `volume 256³ uint16, ${ids.length} labels: computed in ${fmt(computed.ms / 1000)} s; plain /data from the cache ${fmt(plain.ms)} ms ` +
      `(${fmt(plain.body.length / 2 ** 20, 1)} MiB)`,
    );

    const first = await data(`&segment=${ids[0]}`);
    const firstMesh = decodeEnvelope(first.body) as DecodedMesh;
    lines.push(
      `first segment surface (label index made on the way): ${fmt(first.ms)} ms, ${firstMesh.indices.length / 3} triangles (target ≤ 1000 ms); ` +
      `${fmt(first.ms / plain.ms, 1)}× the plain /data`,
    );

    let triangles = 0;
    const started = performance.now();
    for (const id of ids) {
      const answer = await data(`&segment=${id}`);
      if (answer.status !== 200) throw new Error(`segment=${id} answered ${answer.status}`);
      triangles += (decodeEnvelope(answer.body) as DecodedMesh).indices.length / 3;
    }
    const all = performance.now() - started;
    lines.push(
      `${ids.length} segments one after another: ${fmt(all / 1000)} s (target ≤ 10 s), ${fmt(all / ids.length)} ms each, ${triangles} triangles in all`,
    );
    const again = performance.now();
    for (const id of ids) await data(`&segment=${id}`);
    lines.push(`the same ${ids.length} again (made once, sent from the cache): ${fmt((performance.now() - again) / ids.length)} ms each`);

    const painted = await data('&segment=all');
    lines.push(`segment=all: ${fmt(painted.ms)} ms, ${(decodeEnvelope(painted.body) as DecodedMesh).indices.length / 3} triangles with per-vertex colours`);
    const glb = await data(`&segment=${ids[1]}&format=glb`);
    lines.push(`GLB of a held surface: ${fmt(glb.ms)} ms, ${fmt(glb.body.length / 1024, 0)} KiB`);

    const resultId = (await fetchTimedHead(`${host.url}/api/specimens/blobs/data?params=${PARAMS}`))!;
    const zattrs = await fetchTimed(`${host.url}/api/results/${resultId}.zarr/.zattrs`);
    const levels = (JSON.parse(zattrs.body.toString()) as { multiscales: { datasets: unknown[] }[] }).multiscales[0]!.datasets.length;
    lines.push(`labels store .zattrs (pyramid of ${levels} levels made by mode): ${fmt(zattrs.ms)} ms`);
    const godot = await data('', { 'user-agent': 'GodotEngine/4.3.stable.official (Linux)' });
    lines.push(`Godot client: uint8 volume of picked ids in ${fmt(godot.ms)} ms (${fmt(godot.body.length / 2 ** 20, 1)} MiB)`);
  } finally {
    await host.stop();
  }
  lines.push(`load average at end ${loadavg().map((n) => n.toFixed(1)).join(' ')}`);
  return { name: 'labels: segment surfaces of a 256³ uint16 segmentation', lines };
}

/** The X-Result-Id of an answer (its body read and dropped). */
function fetchTimedHead(url: string): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    request(url, (res) => {
      res.resume();
      res.on('end', () => resolve(res.headers['x-result-id'] as string | undefined));
    })
      .on('error', reject)
      .end();
  });
}
