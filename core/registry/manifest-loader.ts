/**
 * @module manifest-loader
 * Loads the plugin bundles in the plugins directory: each `DIR/<plugin>/manifest.json` with
 * its ESM bundle. A broken bundle is reported and skipped; the host keeps serving the others.
 * Every file the manifest lists is checked against its SHA-256 first (checked-bundle.ts), and
 * a checked bundle is served from its kept copy (kept-bundles.ts), never from the folder an
 * operator may be overwriting. The bundle itself is imported only inside worker threads,
 * never on the host's event loop. A folder without a manifest is reported too (and skipped).
 */
import { createHash } from 'node:crypto';
import { readdir, readFile, stat } from 'node:fs/promises';
import { readCheckedBundle } from '../bundles/checked-bundle.ts';
import type { KeptBundles } from '../bundles/kept-bundles.ts';
import { signatureOf, type SignaturePolicy, type SignatureStatus } from '../bundles/bundle-signature.ts';
import path from 'node:path';
import { resolveInside } from '../catalog/safe-path.ts';
import type { SpecimenRecord, ThumbnailSource } from '../catalog/specimen-record.ts';
import { precompileSchema } from '../params/resolve-params.ts';
import { toFunctionEntry, type FunctionEntry, type FunctionSource } from './function-entry.ts';
import { MANIFEST_VERSION, type ManifestSpecimen, type PluginManifest } from './manifest-types.ts';

const RESULT_TYPES = new Set(['mesh', 'volume', 'point_cloud', 'image']);

export interface LoadedPlugin {
  name: string;
  /** The folder its code is served from (its kept copy, or the plugins folder for a hand-written manifest). */
  dir: string;
  /** The version its author gave it. */
  version: string;
  /** SHA-256 of its manifest.json: the bundle id. */
  bundle: string;
  signature: SignatureStatus;
  /** When this host loaded it (ISO 8601). */
  loadedAt: string;
  functions: FunctionEntry[];
  specimens: SpecimenRecord[];
}

/** How bundles are loaded: where checked ones are kept, and which signatures are trusted. */
export interface LoadOptions {
  kept?: KeptBundles | null;
  signatures?: SignaturePolicy;
}

export interface PluginLoadResult {
  plugins: LoadedPlugin[];
  problems: string[];
  /** Each folder whose bundle was refused, with why. */
  failed: { name: string; problem: string }[];
  /** Every plugin folder present (with or without a manifest yet). */
  folders: string[];
}

function checkManifest(value: unknown): asserts value is PluginManifest {
  const m = value as Partial<PluginManifest> | null;
  if (!m || typeof m !== 'object') throw new Error('manifest is not a JSON object');
  if (m.manifest_version !== MANIFEST_VERSION)
    throw new Error(
      `manifest_version ${String(m.manifest_version)} is not supported (expected ${MANIFEST_VERSION}); rebuild the plugin with this version of vitrine`,
    );
  if (typeof m.plugin !== 'string' || typeof m.bundle !== 'string') throw new Error('manifest needs "plugin" and "bundle"');
  if (m.runtime !== undefined && m.runtime !== 'node' && m.runtime !== 'python')
    throw new Error(`runtime ${JSON.stringify(m.runtime)} is not supported (node or python)`);
  if (!Array.isArray(m.functions) || !Array.isArray(m.specimens)) throw new Error('manifest needs "functions" and "specimens" lists');
  for (const f of m.functions) {
    if (!f || typeof f.name !== 'string' || !RESULT_TYPES.has(f.return_type) || !Array.isArray(f.parameters) || typeof f.schema !== 'object') {
      throw new Error(`function entry ${JSON.stringify(f?.name ?? f)} is malformed`);
    }
  }
}

async function thumbnailOf(bundleDir: string, thumbnail: string | null): Promise<{ source: ThumbnailSource; file: string | null }> {
  if (!thumbnail) return { source: { kind: 'none' }, file: null };
  if (thumbnail.startsWith('data:')) return { source: { kind: 'data-uri', uri: thumbnail }, file: null };
  const file = await resolveInside(bundleDir, thumbnail);
  return file ? { source: { kind: 'file', path: file }, file: path.basename(file) } : { source: { kind: 'none' }, file: null };
}

async function toRecord(bundleDir: string, spec: ManifestSpecimen, functions: Map<string, FunctionEntry>): Promise<SpecimenRecord> {
  const thumb = await thumbnailOf(bundleDir, spec.thumbnail);
  return {
    id: spec.id,
    display_name: spec.display_name,
    description: spec.description,
    type: functions.get(spec.function_name)?.return_type ?? 'mesh',
    tags: spec.tags,
    is_dynamic: true,
    function_name: spec.function_name,
    thumbnail_file: thumb.file,
    thumbnail: thumb.source,
    story: spec.story,
    ...(typeof spec.color === 'string' && /^#[0-9a-fA-F]{6}$/.test(spec.color) ? { color: spec.color } : {}),
    origin: 'plugin',
  };
}

/** Python sources in `dir` and below (hidden folders and `__pycache__` left out), sorted. */
async function pythonFiles(dir: string, depth = 0): Promise<string[]> {
  if (depth > 8) return [];
  const out: string[] = [];
  for (const e of await readdir(dir, { withFileTypes: true })) {
    if (e.name.startsWith('.') || e.name === '__pycache__') continue;
    const file = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...(await pythonFiles(file, depth + 1)));
    else if (e.isFile() && e.name.endsWith('.py')) out.push(file);
  }
  return out.sort();
}

/**
 * A Python bundle's version: a hash of its manifest and of every `.py` file in its folder
 * (sibling modules are part of its code), read in a stable order. It keys room entries and tells
 * the plugin processes when to import the plugin again.
 */
async function pythonVersion(dir: string): Promise<string> {
  const hash = createHash('sha256').update(await readFile(path.join(dir, 'manifest.json')));
  for (const file of await pythonFiles(dir)) hash.update(path.relative(dir, file)).update('\0').update(await readFile(file));
  return hash.digest('hex').slice(0, 16);
}

/** The code's version in cache keys and worker imports: the bundle id, or for a hand-written manifest its code's hash. */
async function codeVersion(dir: string, modulePath: string, python: boolean, bundleId: string, listed: boolean): Promise<string> {
  if (listed) return bundleId.slice(0, 16);
  // The bundle's content, not its file time: hosts of one Redis service that were given copies
  // of the same bundle share room entries and computations (the version is in the cache key).
  // A Python plugin's code is every module of its folder, not only plugin.py.
  return python ? await pythonVersion(dir) : createHash('sha256').update(await readFile(modulePath)).digest('hex').slice(0, 16);
}

/** Loads one bundle folder; throws with a readable reason when it is unusable. */
export async function loadPluginBundle(sourceDir: string, options: LoadOptions = {}): Promise<LoadedPlugin> {
  const checked = await readCheckedBundle(sourceDir);
  const manifest = checked.manifest;
  checkManifest(manifest);
  const signature = signatureOf(checked, options.signatures);
  if (checked.mismatch) throw new Error(checked.signature ? `signature invalid: ${checked.mismatch}` : checked.mismatch);
  if (options.signatures?.mode === 'require' && signature !== 'valid')
    throw new Error(`signature ${signature}: only plugins signed by a trusted key are loaded (--signatures require)`);
  if (checked.files && !(manifest.bundle in (manifest.files ?? {}))) throw new Error(`manifest "files" does not list its bundle ${manifest.bundle}`);
  const dir = checked.files && options.kept ? await options.kept.keep({ ...checked, files: checked.files }) : sourceDir;
  const modulePath = await resolveInside(dir, manifest.bundle);
  if (!modulePath) throw new Error(`bundle ${JSON.stringify(manifest.bundle)} is outside the plugin folder`);
  const python = manifest.runtime === 'python';
  const version = await codeVersion(dir, modulePath, python, checked.bundleId, checked.files !== null);
  // A hand-written manifest lists no files: its code's hash joins the manifest's so that new code is a new bundle.
  const bundleId = checked.files ? checked.bundleId : createHash('sha256').update(checked.manifestBytes).update(`\0${version}`).digest('hex');
  const pluginVersion = typeof manifest.version === 'string' && manifest.version !== '' ? manifest.version : '0.0.0';
  const functions = new Map<string, FunctionEntry>();
  for (const f of manifest.functions) {
    precompileSchema(f.schema);
    const source: FunctionSource = {
      kind: 'bundle',
      modulePath,
      exportName: f.name,
      version,
      bundle: bundleId,
      pluginVersion,
      ...(python ? { runtime: 'python' as const } : {}),
    };
    functions.set(f.name, toFunctionEntry(f, source, manifest.plugin));
  }
  const specimens = await Promise.all(
    manifest.specimens.filter((s) => functions.has(s.function_name)).map(async (s) => ({ ...(await toRecord(dir, s, functions)), signature })),
  );
  const loadedAt = new Date().toISOString();
  return { name: manifest.plugin, dir, version: pluginVersion, bundle: bundleId, signature, loadedAt, functions: [...functions.values()], specimens };
}

async function isFolder(file: string): Promise<boolean> {
  return stat(file).then((s) => s.isDirectory(), () => false);
}

/** Loads every bundle folder in `pluginsDir` (a missing directory means no plugins). */
export async function loadPluginBundles(pluginsDir: string, options: LoadOptions = {}): Promise<PluginLoadResult> {
  let names: string[];
  try {
    // A plugin may be a symbolic link to its bundle folder: swapping the link is an atomic deploy.
    const entries = (await readdir(pluginsDir, { withFileTypes: true })).filter((e) => !e.name.startsWith('.'));
    const folders = await Promise.all(entries.map(async (e) => e.isDirectory() || (e.isSymbolicLink() && (await isFolder(path.join(pluginsDir, e.name))))));
    names = entries.filter((_, i) => folders[i]).map((e) => e.name).sort();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return {
      plugins: [],
      failed: [],
      folders: [],
      problems:
        code === 'ENOENT'
          ? [`plugins directory ${path.resolve(pluginsDir)} does not exist: no plugins loaded (run vitrine build)`]
          : [`plugins directory ${pluginsDir}: ${(error as Error).message}`],
    };
  }
  const problems: string[] = [];
  const failed: { name: string; problem: string }[] = [];
  const loaded = await Promise.all(
    names.map(async (name) => {
      const dir = path.join(pluginsDir, name);
      try {
        await stat(path.join(dir, 'manifest.json'));
      } catch {
        // Said, not skipped in silence: a folder copied without its manifest looks like a plugin to whoever put it there.
        if (name !== '__pycache__' && name !== 'node_modules')
          problems.push(`plugin folder ${name}: no manifest.json in ${dir}, so it is not loaded (a bundle folder is what vitrine build writes)`);
        return null;
      }
      try {
        return await loadPluginBundle(dir, options);
      } catch (error) {
        problems.push(`plugin ${name}: ${(error as Error).message}`);
        failed.push({ name, problem: (error as Error).message });
        return null;
      }
    }),
  );
  return { plugins: loaded.filter((p): p is LoadedPlugin => p !== null), problems, failed, folders: names };
}
