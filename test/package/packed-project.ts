/**
 * @module packed-project
 * Test helper: packs this repository's compiled distribution with `npm pack`, scaffolds a
 * project with the packed CLI's `vitrine init --vitrine <tarball>`, and installs it with npm
 * (from the npm cache where it can). Done once per test file; commands run in the project as
 * a user runs them.
 *
 * The pack skips `prepack`: recompiling would empty `build/dist/` while the other test files,
 * running in parallel, use it (the compiled command, the SDK declarations plugins build
 * against). It packs what `npm test` compiled just before, and refuses a distribution older
 * than the sources.
 */
import { execFile } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { mkdir, mkdtemp, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { DIST_DIR, pythonFiles, sourceFiles } from '../../build/tools/compile/compile-paths.ts';
import { spawnHost, type RunningHost } from '../helpers/spawn-host.ts';

const run = promisify(execFile);
const REPO = fileURLToPath(new URL('../..', import.meta.url));

export interface PackedProject {
  /** The scaffolded and installed project. */
  dir: string;
  /** The tarball's contents, unpacked (its `package/` folder). */
  packageDir: string;
  /** The installed CLI (node_modules/vitrine/...). */
  bin: string;
  /** Runs a command in the project; rejects on a non-zero exit with its output. */
  exec(file: string, args: string[]): Promise<{ stdout: string; stderr: string }>;
}

/** Throws unless `build/dist/` is complete and newer than every source file it comes from. */
function requireFreshDistribution(): void {
  // The declarations are the compile's last step.
  const marker = path.join(DIST_DIR, 'core/index.d.ts');
  if (!existsSync(marker)) throw new Error(`${marker} is missing: run npm run compile before the package tests`);
  const compiledAt = statSync(marker).mtimeMs;
  const newer = [...sourceFiles(), ...pythonFiles()].find((file) => statSync(file).mtimeMs > compiledAt);
  if (newer) throw new Error(`${path.relative(REPO, newer)} changed after the last compile: run npm run compile before the package tests`);
}

/** Packs, scaffolds and installs (about ten seconds with a warm npm cache). */
export async function createPackedProject(name = 'my-shapes'): Promise<PackedProject> {
  requireFreshDistribution();
  const root = await mkdtemp(path.join(tmpdir(), 'vitrine-journey-'));
  await run('npm', ['pack', '--silent', '--ignore-scripts', '--pack-destination', root], { cwd: REPO });
  const tarball = (await readdir(root)).find((file) => file.endsWith('.tgz'));
  if (!tarball) throw new Error(`npm pack wrote no tarball into ${root}`);
  const extracted = path.join(root, 'unpacked');
  // Scaffold with the CLI from inside the tarball, as `npx vitrine@<tarball> init` would.
  await mkdir(extracted);
  await run('tar', ['-xzf', path.join(root, tarball), '-C', extracted]);
  await run(process.execPath, [path.join(extracted, 'package/build/dist/core/cli/bin.js'), 'init', name, '--vitrine', `./${tarball}`], { cwd: root });
  const dir = path.join(root, name);
  await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel', 'error'], { cwd: dir, timeout: 120_000 });
  const exec = async (file: string, args: string[]) => {
    try {
      return await run(file, args, { cwd: dir, timeout: 120_000 });
    } catch (error) {
      const e = error as { stdout?: string; stderr?: string; message: string };
      throw new Error(`${file} ${args.join(' ')} failed: ${e.message}\n${e.stdout ?? ''}\n${e.stderr ?? ''}`);
    }
  };
  return { dir, packageDir: path.join(extracted, 'package'), bin: path.join(dir, 'node_modules/vitrine/build/dist/core/cli/bin.js'), exec };
}

/** Runs the project's installed `vitrine serve` (with `nodeArgs` for node) until it listens. */
export function startListening(cwd: string, project: PackedProject, args: string[], nodeArgs: string[] = []): Promise<RunningHost> {
  return spawnHost(args, { cwd, cli: project.bin, nodeArgs });
}
