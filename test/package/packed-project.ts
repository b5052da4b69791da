/**
 * @module packed-project
 * Test helper: packs this repository with `npm pack` (which compiles it), scaffolds a project
 * with the packed CLI's `vitrine init --vitrine <tarball>`, and installs it with npm (from the
 * npm cache where it can). Done once per test file; commands run in the project as a user
 * runs them.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';

const run = promisify(execFile);
const REPO = fileURLToPath(new URL('../..', import.meta.url));

export interface PackedProject {
  /** The scaffolded and installed project. */
  dir: string;
  /** The installed CLI (node_modules/vitrine/...). */
  bin: string;
  /** Runs a command in the project; rejects on a non-zero exit with its output. */
  exec(file: string, args: string[]): Promise<{ stdout: string; stderr: string }>;
}

/** Packs, scaffolds and installs (about ten seconds with a warm npm cache). */
export async function createPackedProject(name = 'my-shapes'): Promise<PackedProject> {
  const root = await mkdtemp(path.join(tmpdir(), 'vitrine-journey-'));
  await run('npm', ['pack', '--silent', '--pack-destination', root], { cwd: REPO });
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
      return await run(file, args, { cwd: dir, timeout: 60_000 });
    } catch (error) {
      const e = error as { stdout?: string; stderr?: string; message: string };
      throw new Error(`${file} ${args.join(' ')} failed: ${e.message}\n${e.stdout ?? ''}\n${e.stderr ?? ''}`);
    }
  };
  return { dir, bin: path.join(dir, 'node_modules/vitrine/build/dist/core/cli/bin.js'), exec };
}

export interface ServedProject {
  url: string;
  child: ChildProcess;
  output: () => string;
  stop(): Promise<void>;
}

/** Starts `node <args>` in `cwd` and waits for its `listening on` line. */
export function startListening(cwd: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<ServedProject> {
  const child = spawn(process.execPath, args, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no 'listening on' within 60 s:\n${out}`)), 60_000);
    child.stdout!.on('data', () => {
      const match = /listening on (http:\/\/\S+)/.exec(out);
      if (!match) return;
      clearTimeout(timer);
      resolve({
        url: match[1]!,
        child,
        output: () => out,
        stop: async () => {
          if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
          await exited;
        },
      });
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`exited with ${code} before listening:\n${out}`));
    });
  });
}
