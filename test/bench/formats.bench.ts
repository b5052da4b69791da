/**
 * @module formats.bench
 * `npm run bench formats`: three meshes from the example plugins (metaballs, the gyroid sheet
 * and a ~100k-triangle torus) in every download format: bytes per triangle (with gzip and br
 * on top for the meshopt GLB, as a browser receives it) and encode time (median of 3, per
 * million triangles); then the meshopt GLB decoded in Chromium by three's GLTFLoader with
 * meshoptimizer's decoder, in a page (median of 7 after a warm-up, per million triangles).
 * The envelope (float32 vertices and normals, uint32 indices) is the reference.
 */
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { encodeMeshEnvelope } from '../../core/envelope/encode-envelope.ts';
import { encodeGlb } from '../../core/formats/glb/encode-glb.ts';
import { encodeObj } from '../../core/formats/obj/encode-obj.ts';
import { encodeStl } from '../../core/formats/stl/encode-stl.ts';
import type { MeshResult } from '../../core/sdk/result-types.ts';
import { gyroid_surface, metaball_surface } from '../../plugins/isosurfaces/index.ts';
import { torus } from '../../plugins/parametric-shapes/index.ts';
import { launchBrowser } from '../browser/browser-session.ts';
import { REPO } from '../helpers/cli-path.ts';
import { fmt, percentile } from './host-helpers.ts';

type Encode = (mesh: MeshResult) => Uint8Array | Promise<Uint8Array>;

const FORMATS: [string, Encode][] = [
  ['envelope', (m) => Buffer.concat(encodeMeshEnvelope({ type: 'mesh', ...m }).parts)],
  ['glb', (m) => encodeGlb(m, { meshopt: false })],
  ['glb+meshopt', (m) => encodeGlb(m, { meshopt: true })],
  ['stl', encodeStl],
  ['obj', encodeObj],
];

/**
 * Median wall time and CPU time (user + system of this process) of three encodes. On a shared,
 * loaded machine the wall time mostly measures waiting for a core; the CPU time is what the
 * encode costs (encoders run on one thread, so it is close to an idle machine's wall time).
 */
async function timed(encode: Encode, mesh: MeshResult): Promise<{ bytes: Uint8Array; ms: number; cpuMs: number }> {
  const runs: number[] = [];
  const cpu: number[] = [];
  let bytes: Uint8Array = new Uint8Array();
  for (let i = 0; i < 3; i++) {
    const started = performance.now();
    const cpuStarted = process.cpuUsage();
    bytes = await encode(mesh);
    const used = process.cpuUsage(cpuStarted);
    runs.push(performance.now() - started);
    cpu.push((used.user + used.system) / 1000);
  }
  return { bytes, ms: percentile(runs, 50), cpuMs: percentile(cpu, 50) };
}

/** three's GLTFLoader and meshopt decoder as one script for a page: `decodeGlb(base64)` → ms. */
async function decoderScript(): Promise<string> {
  const out = await build({
    stdin: {
      contents: `
        import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';
        import { MeshoptDecoder } from 'three/examples/jsm/libs/meshopt_decoder.module.js';
        const loader = new GLTFLoader().setMeshoptDecoder(MeshoptDecoder);
        window.decodeGlb = async (base64) => {
          const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
          const started = performance.now();
          const gltf = await loader.parseAsync(bytes.buffer, '');
          const ms = performance.now() - started;
          let triangles = 0;
          gltf.scene.traverse((o) => { if (o.isMesh) triangles += o.geometry.index.count / 3; });
          return { ms, triangles };
        };
        // The codec alone: every compressed buffer view of the GLB decoded into a new array.
        window.decodeViews = async (base64) => {
          await MeshoptDecoder.ready;
          const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
          const jsonLength = new DataView(bytes.buffer).getUint32(12, true);
          const json = JSON.parse(new TextDecoder().decode(bytes.subarray(20, 20 + jsonLength)));
          const bin = 20 + jsonLength + 8;
          const started = performance.now();
          for (const view of json.bufferViews) {
            const ext = view.extensions && view.extensions.EXT_meshopt_compression;
            if (!ext) continue;
            const from = bin + (ext.byteOffset || 0);
            const out = new Uint8Array(ext.count * ext.byteStride);
            MeshoptDecoder.decodeGltfBuffer(out, ext.count, ext.byteStride, bytes.subarray(from, from + ext.byteLength), ext.mode, ext.filter);
          }
          return performance.now() - started;
        };`,
      resolveDir: REPO,
    },
    bundle: true,
    format: 'iife',
    write: false,
    logLevel: 'silent',
  });
  return out.outputFiles[0]!.text;
}

export async function run(): Promise<{ name: string; lines: string[] }> {
  const meshes: [string, MeshResult][] = [
    ['metaballs (res 64)', await metaball_surface()],
    ['gyroid sheet (res 72)', await gyroid_surface()],
    ['torus 128 × 400', torus(1, 0.35, 128, 400)],
  ];
  const lines: string[] = [];
  const glbs: [string, number, Uint8Array][] = [];
  for (const [label, mesh] of meshes) {
    const triangles = mesh.indices.length / 3;
    const cells: string[] = [];
    for (const [format, encode] of FORMATS) {
      const { bytes, ms, cpuMs } = await timed(encode, mesh);
      let cell = `${format} ${fmt(bytes.byteLength / triangles, 2)} B/tri, ${fmt((ms * 1e6) / triangles, 0)} ms/Mtri (CPU ` +
        `${fmt((cpuMs * 1e6) / triangles, 0)})`;
      if (format === 'glb+meshopt') {
        glbs.push([label, triangles, bytes]);
        const gzip = gzipSync(bytes).byteLength;
        const br = brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } }).byteLength;
        cell += ` (gzip ${fmt(gzip / triangles, 2)}, br ${fmt(br / triangles, 2)} B/tri)`;
      }
      cells.push(cell);
    }
    lines.push(`${label}, ${triangles.toLocaleString('en')} triangles: ${cells.join('; ')}`);
  }

  const browser = await launchBrowser();
  try {
    const page = await browser.newPage();
    await page.addScriptTag({ content: await decoderScript() });
    for (const [label, triangles, glb] of glbs) {
      const base64 = Buffer.from(glb).toString('base64');
      const decode = () =>
        page.evaluate((b) => (window as unknown as { decodeGlb(b: string): Promise<{ ms: number; triangles: number }> }).decodeGlb(b), base64);
      const first = await decode(); // warm-up: the decoder's WebAssembly compiles once
      if (first.triangles !== triangles) throw new Error(`${label}: decoded ${first.triangles} triangles, expected ${triangles}`);
      const runs: number[] = [];
      for (let i = 0; i < 7; i++) runs.push((await decode()).ms);
      // Wall time in the page: on a loaded machine it includes waiting for a core.
      const ms = percentile(runs, 50);
      const codec: number[] = [];
      for (let i = 0; i < 8; i++)
        codec.push(await page.evaluate((b) => (window as unknown as { decodeViews(b: string): Promise<number> }).decodeViews(b), base64));
      const codecMs = percentile(codec.slice(1), 50);
      lines.push(
        `Chromium decode, ${label}: GLTFLoader + MeshoptDecoder ${fmt(ms, 2)} ms (${fmt((ms * 1e6) / triangles, 1)} ms/Mtri); ` +
          `the meshopt codec alone ${fmt(codecMs, 2)} ms (${fmt((codecMs * 1e6) / triangles, 1)} ms/Mtri)`,
      );
    }
  } finally {
    await browser.close();
  }
  return { name: 'mesh formats: bytes, encode and browser decode', lines };
}
