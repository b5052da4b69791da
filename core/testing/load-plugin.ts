/**
 * @module load-plugin
 * `loadPlugin(dir)`: builds one plugin folder exactly as `vitrine build` does (signatures read
 * into JSON Schemas, the bundle made with esbuild), imports the bundle, and returns a handle
 * whose `call` runs a function as the host would (see run-function.ts). Build errors reject
 * with every diagnostic as `file:line:col error CODE ...`.
 */
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { findSpecimenOnDisk } from '../catalog/specimen-scanner.ts';
import { FormatError } from '../formats/format-error.ts';
import { inputParameters, MAX_INPUT_DEPTH } from '../inputs/input-types.ts';
import { StaticInputs } from '../inputs/static-inputs.ts';
import type { ManifestFunction, ManifestSpecimen } from '../registry/manifest-types.ts';
import { toFunctionEntry } from '../registry/function-entry.ts';
import { parseCheckedFile } from '../results/parse-checked-file.ts';
import type { StoredResult } from '../results/stored-result.ts';
import { isRecord } from '../wire/json-object.ts';
import { createHostError } from '../errors.ts';
import { runFunction, type CallOptions, type FunctionRun } from './run-function.ts';

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
 * Where inputs come from, resolved without a host: `{"specimen": id, "params"}` names a specimen
 * the plugin declares (its function is called, inputs and all) or a folder of the specimens
 * directory (a static file, parsed as the host parses it); `{"upload": path}` is a local file,
 * parsed as an upload would be. Refusals are the host's catalogued 400s.
 */
interface TestInputSources {
  /** The specimens directory static inputs are read from. */
  specimensDir: string;
  /** The function behind a specimen the plugin declares, or undefined. */
  functionOf(specimenId: string): string | undefined;
  /** Runs one of the plugin's functions at input depth `depth`. */
  call(name: string, params: Record<string, unknown>, depth: number): Promise<StoredResult>;
}

const statics = new StaticInputs();

async function resolveOne(label: string, value: unknown, sources: TestInputSources, depth: number): Promise<StoredResult> {
  if (!isRecord(value))
    throw createHostError('SPC_ERR_INPUT_INVALID', label, 'must be {"specimen": "<id>", "params": {...}} or {"upload": "<file path>"}');
  if (depth > MAX_INPUT_DEPTH) throw createHostError('SPC_ERR_INPUT_TOO_DEEP', label, String(MAX_INPUT_DEPTH));
  if (typeof value.upload === 'string') {
    const bytes = await readFile(value.upload).catch(() => null);
    if (!bytes) throw createHostError('SPC_ERR_INPUT_UNKNOWN', label, `file '${value.upload}'`);
    try {
      return await parseCheckedFile(bytes, value.upload);
    } catch (error) {
      if (error instanceof FormatError) throw createHostError('SPC_ERR_UPLOAD_INVALID', value.upload, error.message);
      throw error;
    }
  }
  const id = value.specimen;
  if (typeof id !== 'string') throw createHostError('SPC_ERR_INPUT_INVALID', label, 'must name a specimen or an upload');
  const params = isRecord(value.params) ? value.params : {};
  const declared = sources.functionOf(id);
  if (declared) return sources.call(declared, params, depth + 1);
  const record = await findSpecimenOnDisk(sources.specimensDir, id);
  if (!record) throw createHostError('SPC_ERR_INPUT_UNKNOWN', label, `specimen '${id}' (neither declared by the plugin nor in ${sources.specimensDir})`);
  if (record.is_dynamic) {
    if (!record.function_name) throw createHostError('SPC_ERR_INPUT_UNKNOWN', label, `specimen '${id}' without a function`);
    return sources.call(record.function_name, params, depth + 1);
  }
  return statics.load(record, new AbortController().signal);
}

/** `values` with each input parameter replaced by its result (type-checked). */
async function resolveTestInputs(
  schema: Record<string, unknown>,
  values: Record<string, unknown>,
  sources: TestInputSources,
  depth = 1,
): Promise<Record<string, unknown>> {
  const out = { ...values };
  for (const [name, type] of inputParameters(schema)) {
    if (values[name] === undefined) continue;
    const result = await resolveOne(name, values[name], sources, depth);
    if (result.type !== type) throw createHostError('SPC_ERR_INPUT_TYPE', name, type, result.type);
    out[name] = result;
  }
  return out;
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
