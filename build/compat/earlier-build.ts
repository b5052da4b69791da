/**
 * @module earlier-build
 * The manifests of the build `--against` names: a previous build's output folder (each
 * bundle folder's manifest.json), or `git:<ref>`, that commit's plugins built in a scratch
 * folder. The commit's whole tree is exported there with `git archive` (plugins may import
 * code beside their folder), the checkout's `node_modules` folders are linked in so imports
 * resolve as they do now, and the build runs in memory; the scratch folder is removed after.
 * The repository itself is not touched: no worktree, no checkout, no stash.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildPlugins } from '../build-plugins.ts';
import { formatDiagnostic } from '../diagnostics/format-diagnostic.ts';
import { statedVersion } from '../manifest/plugin-version.ts';
import { listBundleFolders } from '../output/read-bundle-folder.ts';
import type { PluginOutput } from '../output/plugin-output.ts';
import { PLUGIN_ENTRIES } from '../plugins/find-plugins.ts';
import type { VersionedManifest } from './compat-report.ts';
import { fetchedCommit, git } from './fetched-ref.ts';

export type AgainstSource = { kind: 'dir'; dir: string } | { kind: 'git'; ref: string };

/** The earlier build cannot be had (no such folder, not a repository, unknown ref, it does not build). */
export class AgainstError extends Error {
  constructor(
    message: string,
    /** More lines to show: the earlier build's errors, their paths relative to its repository. */
    readonly details: string[] = [],
  ) {
    super(message);
  }
}

/** `git:<ref>` or a folder (resolved against `cwd`). */
export function parseAgainst(value: string, cwd: string): AgainstSource {
  return value.startsWith('git:') ? { kind: 'git', ref: value.slice('git:'.length) } : { kind: 'dir', dir: path.resolve(cwd, value) };
}

/** The manifests a build wrote into `outDir`. */
export function readBuiltManifests(outDir: string): VersionedManifest[] {
  if (!existsSync(outDir) || !statSync(outDir).isDirectory()) throw new AgainstError(`${outDir} is not a build output folder`);
  const folders = listBundleFolders(outDir);
  // A folder with no bundle in it is more likely a wrong path (the sources, say) than an empty build.
  if (folders.length === 0) throw new AgainstError(`${outDir} holds no build output (no <plugin>/manifest.json)`);
  return folders.map((name) => {
    const file = path.join(outDir, name, 'manifest.json');
    try {
      return JSON.parse(readFileSync(file, 'utf8')) as VersionedManifest;
    } catch (error) {
      throw new AgainstError(`${file} is not a manifest: ${error instanceof Error ? error.message : String(error)}`);
    }
  });
}

/**
 * The manifests of a build in memory, each with its version: one written before manifests had
 * one is given the version its plugin's folder in `srcDir` states, read as the build reads it.
 */
export function manifestsOf(plugins: PluginOutput[], srcDir: string): VersionedManifest[] {
  return plugins.map((plugin) => {
    const manifest = JSON.parse(plugin.files.get('manifest.json')!.toString('utf8')) as VersionedManifest;
    if (typeof manifest.version === 'string') return manifest;
    const dir = path.join(srcDir, plugin.name);
    const runtime = manifest.runtime === 'python' ? 'python' : 'node';
    return { ...manifest, version: statedVersion({ dir, entry: path.join(dir, PLUGIN_ENTRIES[runtime]), runtime }).version };
  });
}

/** The commit `ref` names in the repository holding `srcDir`, and where `srcDir` sits in it. */
function locate(srcDir: string, ref: string): { top: string; commit: string; relative: string } {
  let top: string;
  try {
    top = realpathSync(git(['rev-parse', '--show-toplevel'], srcDir));
  } catch {
    throw new AgainstError(`${srcDir} is not inside a git repository`);
  }
  let commit: string;
  try {
    commit = git(['rev-parse', '--verify', '--quiet', `${ref}^{commit}`], top);
  } catch {
    // A shallow single-branch clone keeps a fetched remote branch only in FETCH_HEAD.
    const fetched = fetchedCommit(top, ref);
    if (fetched === null) throw new AgainstError(`unknown git revision '${ref}'`);
    commit = fetched;
  }
  return { top, commit, relative: path.relative(top, realpathSync(srcDir)) };
}

/** Links each `node_modules` folder from the repository root down to `srcDir` and its plugins into the scratch tree. */
function linkNodeModules(top: string, srcDir: string, tree: string): void {
  const dirs: string[] = [];
  for (let dir = realpathSync(srcDir); dir.startsWith(top); dir = path.dirname(dir)) {
    dirs.push(dir);
    if (dir === top) break;
  }
  for (const entry of readdirSync(srcDir, { withFileTypes: true })) if (entry.isDirectory()) dirs.push(path.join(realpathSync(srcDir), entry.name));
  for (const dir of dirs) {
    const modules = path.join(dir, 'node_modules');
    const target = path.join(tree, path.relative(top, dir), 'node_modules');
    if (existsSync(modules) && existsSync(path.dirname(target)) && !existsSync(target)) symlinkSync(modules, target, 'junction');
  }
}

/**
 * Builds the plugins of `srcDir` as they were at `ref`: an empty list when the folder did not
 * exist then (every function is new).
 */
export async function buildAtRevision(srcDir: string, ref: string, options: { python?: string } = {}): Promise<VersionedManifest[]> {
  const { top, commit, relative } = locate(srcDir, ref);
  const scratch = mkdtempSync(path.join(tmpdir(), 'vitrine-against-'));
  try {
    const tree = path.join(scratch, 'tree');
    mkdirSync(tree);
    const archive = path.join(scratch, 'tree.tar');
    git(['archive', '--format=tar', '-o', archive, commit], top);
    execFileSync('tar', ['-xf', archive, '-C', tree], { stdio: ['ignore', 'ignore', 'pipe'] });
    const oldSrc = path.join(tree, relative);
    if (!existsSync(oldSrc)) return [];
    linkNodeModules(top, srcDir, tree);
    const built = await buildPlugins(oldSrc, path.join(scratch, 'out'), options);
    if (built.diagnostics.length > 0) {
      const details = built.diagnostics.map((diagnostic) => formatDiagnostic(diagnostic, tree));
      throw new AgainstError(`the plugins at git:${ref} do not build (${built.diagnostics.length} errors)`, details);
    }
    return manifestsOf(built.plugins, oldSrc);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** The earlier build's manifests. */
export async function loadEarlier(source: AgainstSource, srcDir: string, options: { python?: string } = {}): Promise<VersionedManifest[]> {
  return source.kind === 'dir' ? readBuiltManifests(source.dir) : buildAtRevision(srcDir, source.ref, options);
}
