/**
 * @module load-plugin
 * `loadPlugin(dir)`: builds one plugin folder exactly as `vitrine build` does (signatures read
 * into JSON Schemas, the bundle made with esbuild), imports the bundle, and returns a handle
 * whose `call` runs a function as the host would (see run-function.ts). Build errors reject
 * with every diagnostic as `file:line:col error CODE ...`.
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { ManifestFunction, ManifestSpecimen } from '../registry/manifest-types.ts';
import { toFunctionEntry } from '../registry/function-entry.ts';
import { createHostError } from '../errors.ts';
import { runFunction, type CallOptions, type FunctionRun } from './run-function.ts';
import { resolveTestInputs, type TestInputSources } from './test-inputs.ts';

export interface LoadPluginOptions {
  /**
   * Where inputs naming a static specimen (`{ specimen: 'ct-head-phantom' }`) are read from.
   * @defaultValue `"specimens"` (relative to the working directory)
   */
  specimens?: string;
}

/** A built and imported plugin. */
export interface TestPlugin {
  /** The plugin folder's name (also its bundle folder's). */
  name: string;
  /** The registered functions as the manifest lists them (schema, parameters, return type). */
  functions: ManifestFunction[];
  /** The declared specimens as the manifest lists them. */
  specimens: ManifestSpecimen[];
  /** The generated JSON Schema of function `name`. */
  schema(name: string): Record<string, unknown>;
  /**
   * Runs function `name` with parameters by name, as the host would. An input parameter takes
   * `{ specimen: id, params }` (a specimen this plugin declares, or a folder of the specimens
   * directory) or `{ upload: filePath }` (a local file, parsed as an upload).
   */
  call(name: string, params?: Record<string, unknown>, options?: CallOptions): Promise<FunctionRun>;
}

/** Thrown by loadPlugin when the plugin does not build; `diagnostics` are printable lines. */
export class PluginBuildError extends Error {
  override name = 'PluginBuildError';
  constructor(readonly diagnostics: string[]) {
    super(`the plugin does not build:\n${diagnostics.join('\n')}`);
  }
}

/**
 * Builds and imports the plugin in `dir` (a folder holding `index.ts`; a path relative to the
 * working directory, or a file URL such as `new URL('../plugins/shapes', import.meta.url)`).
 */
export async function loadPlugin(dir: string | URL, loadOptions: LoadPluginOptions = {}): Promise<TestPlugin> {
  const pluginDir = path.resolve(typeof dir === 'string' && !dir.startsWith('file:') ? dir : fileURLToPath(dir));
  // The build tools (TypeScript, esbuild) load only when a test asks for a plugin.
  const [{ buildPluginInMemory }, { formatDiagnostic }] = await Promise.all([
    import('../../build/build-one-plugin.ts'),
    import('../../build/diagnostics/format-diagnostic.ts'),
  ]);
  const built = await buildPluginInMemory(pluginDir);
  if (built.diagnostics.length > 0 || !built.bundle) {
    throw new PluginBuildError(built.diagnostics.map((d) => formatDiagnostic(d, process.cwd())));
  }
  const out = await mkdtemp(path.join(tmpdir(), `vitrine-test-${built.name}-`));
  const modulePath = path.join(out, 'index.mjs');
  await writeFile(modulePath, built.bundle);
  const exports = (await import(pathToFileURL(modulePath).href)) as Record<string, unknown>;
  const functions = new Map(built.functions.map((fn) => [fn.name, fn]));
  const functionOr404 = (name: string): ManifestFunction => {
    const fn = functions.get(name);
    if (!fn) throw createHostError('SPC_ERR_FUNCTION_NOT_FOUND', name);
    return fn;
  };
  const callAt = async (name: string, params: Record<string, unknown>, options: CallOptions, depth: number): Promise<FunctionRun> => {
    const fn = functionOr404(name);
    const prepare = (values: Record<string, unknown>) => resolveTestInputs(fn.schema, values, sources, depth);
    const entry = toFunctionEntry(fn, { kind: 'bundle', modulePath, exportName: fn.name, version: '0' }, built.name);
    return runFunction(entry, exports[name] as (...args: unknown[]) => unknown, params, options, prepare);
  };
  const sources: TestInputSources = {
    specimensDir: path.resolve(loadOptions.specimens ?? 'specimens'),
    functionOf: (id) => built.specimens.find((s) => s.id === id)?.function_name,
    call: async (name, params, depth) => (await callAt(name, params, {}, depth)).result,
  };
  return {
    name: built.name,
    functions: built.functions,
    specimens: built.specimens,
    schema: (name) => functionOr404(name).schema,
    call: (name, params = {}, options = {}) => callAt(name, params, options, 1),
  };
}
