/**
 * @module build.bench
 * Build speed: `vitrine build` spawned as a user runs it (wall clock, start-up included) on
 * 50 generated plugins of 4 functions each, on a single plugin, and `--check` on the 50.
 * Targets: 50 × 4 under 10 s, one plugin under 3 s, on a 2-core machine.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const BIN = fileURLToPath(new URL('../../core/cli/vitrine.mjs', import.meta.url));
const RUNS = 3;

/** One generated plugin: a mesh, a volume, a point cloud and an image function with docs and bounds. */
export function pluginSource(index: number): string {
  return `import type { ImageResult, Integer, MeshResult, PointCloudResult, ProgressReporter, SpecimenDeclaration, VolumeResult } from 'vitrine';
import { scale } from './helper.ts';

/**
 * A generated mesh.
 * @param size Edge length.
 * @range size 0.1 10
 * @minimum segments 1
 */
export function mesh${index}(size = 1.5, segments: Integer = 8, mode: 'fast' | 'fine' = 'fast', progress?: ProgressReporter): MeshResult {
  progress?.report(mode);
  return { vertices: new Float32Array(segments * 3).fill(scale(size)), indices: new Uint32Array(3) };
}

/** A generated volume. */
export async function volume${index}(depth: Integer = 4, level = -2.5, signal?: AbortSignal): Promise<VolumeResult> {
  void signal;
  return { shape: [depth, 1, 1], dtype: 'float32', data: new Float32Array(depth).fill(level) };
}

/** A generated cloud. */
export const cloud${index} = (count: Integer = 16, colored = false): PointCloudResult => ({ points: new Float32Array(count * 3), ...(colored ? {} : {}) });

/** A generated image. */
export function image${index}(width: Integer = 4, height: Integer = 4, label = 'x'): ImageResult {
  void label;
  return { width, height, channels: 1, data: new Uint8Array(width * height) };
}

export const specimens: SpecimenDeclaration[] = [
  { id: 'mesh-${index}', function: 'mesh${index}', display_name: 'Mesh ${index}', tags: ['generated'] },
];
`;
}

function writePlugins(root: string, count: number): void {
  for (let index = 0; index < count; index++) {
    const dir = path.join(root, `plugin-${String(index).padStart(2, '0')}`);
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'index.ts'), pluginSource(index));
    writeFileSync(path.join(dir, 'helper.ts'), `export function scale(value: number): number {\n  return value * ${index + 1};\n}\n`);
  }
}

/** Wall-clock seconds of one spawned `vitrine build ...args`; throws when it fails. */
function timeBuild(args: string[]): number {
  const started = performance.now();
  const result = spawnSync(process.execPath, [BIN, 'build', ...args], { encoding: 'utf8' });
  const seconds = (performance.now() - started) / 1000;
  if (result.status !== 0) throw new Error(`vitrine build ${args.join(' ')} exited ${result.status}: ${result.stderr}`);
  return seconds;
}

function summarize(label: string, samples: number[], target: number): string {
  const sorted = [...samples].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)]!;
  const verdict = median < target ? 'under' : 'OVER';
  return `${label.padEnd(34)} median ${median.toFixed(2)} s  min ${sorted[0]!.toFixed(2)} s  max ${sorted.at(-1)!.toFixed(2)} s  (${RUNS} runs; ${verdict} ` +
    `the ${target} s target)`;
}

export async function run(): Promise<{ name: string; lines: string[] }> {
  const root = mkdtempSync(path.join(tmpdir(), 'vitrine-build-bench-'));
  try {
    const many = path.join(root, 'many');
    const one = path.join(root, 'one');
    writePlugins(many, 50);
    writePlugins(one, 1);
    const out = path.join(root, 'out');
    const manyRuns: number[] = [];
    const checkRuns: number[] = [];
    const oneRuns: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      manyRuns.push(timeBuild([many, '--out', out]));
      checkRuns.push(timeBuild([many, '--out', out, '--check']));
      oneRuns.push(timeBuild([one, '--out', path.join(root, 'out-one')]));
    }
    return {
      name: 'vitrine build (spawned CLI, wall clock incl. start-up)',
      lines: [
        summarize('50 plugins x 4 functions', manyRuns, 10),
        summarize('50 plugins x 4 functions --check', checkRuns, 10),
        summarize('1 plugin x 4 functions', oneRuns, 3),
      ],
    };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
