/**
 * @module load-python-plugin
 * `loadPythonPlugin(dir)`: a Python plugin folder (its `plugin.py`) read as `vitrine build`
 * reads it (signatures and declared specimens, with one run of the interpreter, nothing of
 * the plugin executed), and a handle whose `call` runs a function in one plugin process of
 * the kind the host starts (the same runner, the same call frame), answering the stored
 * result the host would keep. Parameters go as given; what is not given takes the function's
 * own default. Inputs (a volume a function takes) are not passed: a function that needs one
 * is refused by name. `close()` ends the process.
 */
import path from 'node:path';
import { createHostError } from '../errors.ts';
import type { ManifestFunction, ManifestSpecimen } from '../registry/manifest-types.ts';
import type { StoredResult } from '../results/stored-result.ts';
import { inputKindOf } from '../wire/input-schema.ts';
import { PYTHON_MODULE_DIR } from '../python/python-module-dir.ts';
import { PythonProcess } from '../python/python-process.ts';
import { toStoredResult } from '../python/python-results.ts';
import { PluginBuildError } from './load-plugin.ts';

/** A Python plugin read and its process started. */
export interface TestPythonPlugin {
  name: string;
  functions: ManifestFunction[];
  specimens: ManifestSpecimen[];
  /** Runs function `name` with `params` (scalars by name) in the plugin's process. */
  call(name: string, params?: Record<string, unknown>): Promise<StoredResult>;
  close(): void;
}

export interface LoadPythonOptions {
  /** The interpreter. @defaultValue `VITRINE_PYTHON`, else `python3` */
  python?: string;
  /** Where the plugin's prints and tracebacks go. @defaultValue standard error */
  log?: (line: string) => void;
}

/** The inputs (volumes, meshes, ... another result) function `fn` takes, by name. */
function inputsOf(fn: ManifestFunction): string[] {
  const properties = ((fn.schema as { properties?: Record<string, unknown> }).properties ?? {}) as Record<string, unknown>;
  return Object.keys(properties).filter((name) => inputKindOf(properties[name]));
}

/** Reads the Python plugin in `dir` as the build does and starts a process to run its functions. */
export async function loadPythonPlugin(dir: string, options: LoadPythonOptions = {}): Promise<TestPythonPlugin> {
  const pluginDir = path.resolve(dir);
  // The build's reader loads only when a Python plugin is asked for.
  const [{ pluginSourceOf }, { analyzePythonPlugins }, { resolvePython }, { formatDiagnostic }] = await Promise.all([
    import('../../build/plugins/find-plugins.ts'),
    import('../../build/python/analyze-python-plugins.ts'),
    import('../../build/python/python-interpreter.ts'),
    import('../../build/diagnostics/format-diagnostic.ts'),
  ]);
  const source = pluginSourceOf(path.dirname(pluginDir), path.basename(pluginDir));
  if (!source || source.runtime !== 'python') throw new Error(`${pluginDir} holds no plugin.py`);
  const python = resolvePython(options.python);
  const diagnostics: Parameters<typeof analyzePythonPlugins>[2] = [];
  const [analysis] = await analyzePythonPlugins([source], python, diagnostics);
  const errors = diagnostics.filter((d) => d.severity !== 'warning');
  if (errors.length > 0 || !analysis) throw new PluginBuildError(errors.map((d) => formatDiagnostic(d, process.cwd())));
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const child = new PythonProcess({ python, modulePath: PYTHON_MODULE_DIR, maxBytes: 0, maxChildren: 64, log });
  let nextId = 1;
  const call = async (name: string, params: Record<string, unknown> = {}): Promise<StoredResult> => {
    const fn = analysis.functions.find((f) => f.name === name);
    if (!fn) throw createHostError('SPC_ERR_FUNCTION_NOT_FOUND', name);
    const inputs = inputsOf(fn).filter((input) => params[input] === undefined);
    if (inputs.length > 0) throw new Error(`function '${name}' takes another result as input (${inputs.join(', ')}), which is not given here`);
    await child.ready;
    const header = {
      t: 'call',
      id: nextId++,
      plugin: { name: source.name, dir: source.dir, entry: path.basename(source.entry), version: '0' },
      function: name,
      return_type: fn.return_type,
      args: params,
      inputs: [],
      reporter: fn.parameters.find((p) => p.kind === 'reporter')?.name ?? null,
    };
    const answer = await child.request(header);
    if (answer.header.t === 'result') return toStoredResult(answer, fn.return_type);
    throw new Error(`function '${name}' failed: ${String(answer.header.message ?? answer.header.kind ?? 'no result')}`);
  };
  return { name: source.name, functions: analysis.functions, specimens: analysis.specimens, call, close: () => child.close() };
}
