/**
 * @module run-cli
 * Runs the real `vitrine` command in a child process and writes throwaway plugin folders.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CLI } from '../../helpers/cli-path.ts';

export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
/** The command under test: the sources, or the compiled one under `npm test` (cli-path.ts). */
export const VITRINE_BIN = CLI;

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Spawns `node <vitrine> ...args` in `cwd` (with `env` added to this process's environment). */
export function runVitrine(args: string[], cwd: string = REPO_ROOT, env: NodeJS.ProcessEnv = {}): Promise<CliRun> {
  return runNode([VITRINE_BIN, ...args], cwd, env);
}

/** Spawns `node ...args` in `cwd` and collects its output. */
export function runNode(args: string[], cwd: string, env: NodeJS.ProcessEnv = {}): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** A fresh temp folder. */
export function tempDir(prefix = 'vitrine-build-'): string {
  return mkdtempSync(path.join(tmpdir(), prefix));
}

/** Writes `files` (relative path → content) under `root`. */
export function writeFiles(root: string, files: Record<string, string | Uint8Array>): void {
  for (const [relative, content] of Object.entries(files)) {
    const file = path.join(root, relative);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, content);
  }
}

/** The smallest valid PNG signature plus some bytes: enough for a file copy test. */
export const FAKE_PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4]);

/** A small valid plugin with a thumbnail file, a data-URI thumbnail and a helper export. */
export function sampleShapesPlugin(radiusDefault = '1.5'): Record<string, string | Uint8Array> {
  return {
    'shapes/index.ts': `import type { Integer, MeshResult, ProgressReporter, SpecimenDeclaration } from 'vitrine';
import { ringVertices } from './ring.ts';

/**
 * A flat ring of points joined into triangles.
 * @param radius Ring radius.
 * @minimum radius 0.1
 * @maximum radius 10
 */
export function ring(radius = ${radiusDefault}, mode: 'fast' | 'fine' = 'fast', segments: Integer = 32, progress?: ProgressReporter): MeshResult {
  progress?.report('building');
  const count = mode === 'fine' ? segments * 2 : segments;
  const vertices = ringVertices(radius, count);
  const indices = new Uint32Array(count * 3);
  for (let i = 0; i < count; i++) indices.set([i, (i + 1) % count, i], i * 3);
  return { vertices, indices };
}

export function circumference(radius: number): number {
  return 2 * Math.PI * radius;
}

const STORY = 'A ring ' + 'of triangles.';

export const specimens: SpecimenDeclaration[] = [
  { id: 'ring', function: 'ring', display_name: 'Ring', description: 'A ring', tags: ['mesh', 'demo'], thumbnail: './thumbnails/ring.png', story: STORY },
  { id: 'ring.inline', function: 'ring', display_name: 'Inline ring', thumbnail: 'data:image/png;base64,iVBORw0KGgo=', color: '#d9534f' },
];
`,
    'shapes/ring.ts': `export function ringVertices(radius: number, count: number): Float32Array {
  const vertices = new Float32Array(count * 3);
  for (let i = 0; i < count; i++) {
    const angle = (i / count) * 2 * Math.PI;
    vertices.set([radius * Math.cos(angle), 0, radius * Math.sin(angle)], i * 3);
  }
  return vertices;
}
`,
    'shapes/thumbnails/ring.png': FAKE_PNG,
  };
}
