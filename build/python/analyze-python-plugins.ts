/**
 * @module analyze-python-plugins
 * Python plugin folders → their manifest functions and specimens, as analyze-plugin.ts does
 * for TypeScript: one run of the reader over every `plugin.py`, then each module-level
 * function annotated with a result type is registered (its signature by python-signature.ts)
 * and the `specimens` declaration is checked by the same code as a TypeScript plugin's. A
 * module that cannot be read (a syntax error, no interpreter) is VITRINE_PLUGIN_403.
 */
import type { ManifestFunction } from '../../core/registry/manifest-types.ts';
import { createDiagnostic, type BuildDiagnostic } from '../diagnostics/build-diagnostic.ts';
import type { PluginAnalysis } from '../plugins/analyze-plugin.ts';
import { analyzeSpecimens } from '../plugins/analyze-specimens.ts';
import { PLUGIN_ENTRIES, type PluginSource } from '../plugins/find-plugins.ts';
import type { PyAnnotationChain } from './annotations/annotation-parser.ts';
import { createAnnotationChain } from './annotations/create-annotation-chain.ts';
import { locationIn, type PyScope } from './python-names.ts';
import { classifyPythonReturn } from './python-return.ts';
import { generatePythonSignature } from './python-signature.ts';
import { readPythonSpecimens } from './python-specimens.ts';
import type { PyModule } from './reader-output.ts';
import { runReader } from './run-reader.ts';

function emptyAnalysis(plugin: PluginSource): PluginAnalysis {
  return { plugin, functions: [], specimens: [], thumbnails: [], specimenLocations: new Map(), notes: [], warnings: [] };
}

/** One read module → its analysis. */
export function analyzePythonModule(module: PyModule, plugin: PluginSource, chain: PyAnnotationChain, diagnostics: BuildDiagnostic[]): PluginAnalysis {
  const scope: PyScope = { file: plugin.entry, imports: module.imports };
  const functions: ManifestFunction[] = [];
  const warnings: BuildDiagnostic[] = [];
  const attempted = new Set<string>();
  for (const fn of module.functions) {
    const returnClass = classifyPythonReturn(fn.returns, scope);
    if (returnClass.kind === 'helper') continue;
    // A function that failed still counts as declared, so specimens naming it do not add noise.
    attempted.add(fn.name);
    if (returnClass.kind === 'error') {
      diagnostics.push(
        createDiagnostic('VITRINE_FUNCTION_200', locationIn(scope, returnClass.at), returnClass.message, { plugin: plugin.name, functionName: fn.name }),
      );
      continue;
    }
    const before = diagnostics.length;
    const signature = generatePythonSignature(fn, scope, chain, { plugin: plugin.name }, diagnostics);
    if (diagnostics.length > before) continue;
    warnings.push(...signature.warnings);
    functions.push({
      name: fn.name,
      return_type: returnClass.returnType,
      async: fn.async,
      parameters: signature.parameters,
      reporter_parameter: signature.reporterParameter,
      signal_parameter: null,
      schema: signature.schema,
      source: { file: PLUGIN_ENTRIES.python, line: fn.line },
    });
  }
  const declared = readPythonSpecimens(module, scope, plugin.name, diagnostics);
  const { specimens, thumbnails, locations } = analyzeSpecimens(declared, attempted, plugin.dir, plugin.name, diagnostics);
  return { plugin, functions, specimens, thumbnails, specimenLocations: locations, notes: [], warnings };
}

/** Reads and analyses `plugins` (Python ones) with the interpreter `python`. */
export async function analyzePythonPlugins(plugins: PluginSource[], python: string, diagnostics: BuildDiagnostic[]): Promise<PluginAnalysis[]> {
  if (plugins.length === 0) return [];
  const run = await runReader(python, plugins.map((plugin) => plugin.entry));
  const chain = createAnnotationChain();
  return plugins.map((plugin) => {
    const fail = (line: number, column: number, message: string): PluginAnalysis => {
      diagnostics.push(createDiagnostic('VITRINE_PLUGIN_403', { file: plugin.entry, line, column }, message, { plugin: plugin.name }));
      return emptyAnalysis(plugin);
    };
    if (!run.ok) return fail(1, 1, run.problem);
    const module = run.output.modules[plugin.entry];
    if (module === undefined) return fail(1, 1, 'the reader returned nothing for this module');
    if ('error' in module) return fail(module.error.line, module.error.col, `${PLUGIN_ENTRIES.python} does not parse: ${module.error.message}`);
    return analyzePythonModule(module, plugin, chain, diagnostics);
  });
}
