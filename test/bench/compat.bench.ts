/**
 * @module compat.bench
 * `vitrine build --against`: 50 functions (10 plugins of 5) whose second version renames,
 * narrows, tightens and re-defaults parameters. Measured: the comparison itself in process (the
 * earlier output folder's manifests read, every function compared, each change placed at its
 * source line), target under 2 s; and, for context, the whole command spawned as CI runs it,
 * against a folder (one build) and against `git:HEAD~1` (two builds).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildPlugins } from '../../build/build-plugins.ts';
import { compareBuilds } from '../../build/compat/compat-report.ts';
import { manifestsOf, readBuiltManifests } from '../../build/compat/earlier-build.ts';
import { placeChanges } from '../../build/compat/place-changes.ts';
import { CLI } from '../helpers/cli-path.ts';

const PLUGINS = 10;
const PER_PLUGIN = 5;
const RUNS = 20;
const SPAWNED_RUNS = 3;

/** One function; `next` is its second version, changed in a way that depends on its number. */
function functionSource(id: number, next: boolean): string {
  const change = next ? id % 5 : -1;
  const label = change === 0 ? 'title' : 'label';
  const size = change === 1 ? 2.5 : 1.5;
  const modes = change === 2 ? "'fast'" : "'fast' | 'fine'";
  const minimum = change === 3 ? 4 : 2;
  const segments = change === 4 ? 'number' : 'Integer';
  return `
/**
 * Function ${id}.
 * @range size 0.1 10
 * @range segments ${minimum} 256
 * @minItems levels 1
 */
export function shape${id}(
  size = ${size},
  segments: ${segments} = 8,
  mode: ${modes} = 'fast',
  ${label} = 'x',
  levels: number[] = [0.5],
  progress?: ProgressReporter,
): MeshResult {
  progress?.report(mode + ${label});
  return { vertices: new Float32Array(segments * 3).fill(size * levels.length), indices: new Uint32Array(3) };
}
`;
}

function writePlugins(root: string, next: boolean): void {
  for (let p = 0; p < PLUGINS; p++) {
    const dir = path.join(root, `plugin-${p}`);
    mkdirSync(dir, { recursive: true });
    const functions = Array.from({ length: PER_PLUGIN }, (_, f) => functionSource(p * PER_PLUGIN + f, next)).join('');
    writeFileSync(path.join(dir, 'index.ts'), `import type { Integer, MeshResult, ProgressReporter } from 'vitrine';\n${functions}`);
  }
}

function spawnBuild(args: string[], cwd: string): number {
  const started = performance.now();
  const run = spawnSync(process.execPath, [CLI, 'build', ...args], { cwd, encoding: 'utf8' });
  if (run.status !== 1 || !run.stdout.includes('50 functions compared')) throw new Error(`vitrine build ${args.join(' ')}: ${run.status} ${run.stderr}`);
  return (performance.now() - started) / 1000;
}

function median(samples: number[]): number {
  return [...samples].sort((a, b) => a - b)[Math.floor(samples.length / 2)]!;
}

function line(label: string, samples: number[], unit: 'ms' | 's', target?: number): string {
  const scale = unit === 'ms' ? 1000 : 1;
  const value = (median(samples) * scale).toFixed(unit === 'ms' ? 1 : 2);
  const verdict = target === undefined ? '' : `; ${median(samples) < target ? 'under' : 'OVER'} the ${target} s target`;
  return `${label.padEnd(46)} median ${value} ${unit} (${samples.length} runs${verdict})`;
}

export async function run(): Promise<{ name: string; lines: string[] }> {
  const root = mkdtempSync(path.join(tmpdir(), 'vitrine-compat-bench-'));
  try {
    const repo = path.join(root, 'repo');
    const src = path.join(repo, 'plugins');
    const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=b', '-c', 'user.email=b@example.com', ...args], { cwd: repo });
    writePlugins(src, false);
    git('init', '-q');
    git('add', '-A');
    git('commit', '-qm', 'first');
    const before = path.join(root, 'before');
    spawnSync(process.execPath, [CLI, 'build', src, '--out', before], { encoding: 'utf8' });
    writePlugins(src, true);
    git('commit', '-qam', 'second');

    const now = await buildPlugins(src, path.join(root, 'now'));
    let changes = 0;
    const compareRuns: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const started = performance.now();
      const report = compareBuilds(readBuiltManifests(before), manifestsOf(now.plugins, src));
      changes = placeChanges(report.changes, src, repo).length;
      compareRuns.push((performance.now() - started) / 1000);
    }
    const dirRuns: number[] = [];
    const gitRuns: number[] = [];
    for (let i = 0; i < SPAWNED_RUNS; i++) {
      dirRuns.push(spawnBuild(['--against', before, '--out', path.join(root, 'out')], repo));
      gitRuns.push(spawnBuild(['--against', 'git:HEAD~1', '--out', path.join(root, 'out')], repo));
    }
    return {
      name: `vitrine build --against (${PLUGINS * PER_PLUGIN} functions, ${changes} changes)`,
      lines: [
        line('compare 50 functions (read, compare, place)', compareRuns, 'ms', 2),
        line('spawned: build + --against DIR', dirRuns, 's'),
        line('spawned: build + --against git:HEAD~1', gitRuns, 's'),
      ],
    };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
