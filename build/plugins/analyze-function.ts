/**
 * @module analyze-function
 * One exported function → its manifest entry (or a diagnostic, or a note that it is a
 * helper and not registered).
 */
import path from 'node:path';
import type { ManifestFunction } from '../../core/registry/manifest-types.ts';
import { createDiagnostic, locationOf, type BuildDiagnostic } from '../diagnostics/build-diagnostic.ts';
import { generateSchema } from '../schema/generate-schema.ts';
import type { ParamChain } from '../schema/param-parser.ts';
import { classifyReturnType } from './classify-return-type.ts';
import type { ExportedFunction } from './find-exported-functions.ts';

export type FunctionAnalysis =
  | { kind: 'registered'; entry: ManifestFunction; warnings: BuildDiagnostic[] }
  | { kind: 'helper'; note: string }
  | { kind: 'failed' };

export function analyzeFunction(
  exported: ExportedFunction,
  pluginDir: string,
  plugin: string,
  chain: ParamChain,
  diagnostics: BuildDiagnostic[],
): FunctionAnalysis {
  const { name, node } = exported;
  const returnClass = classifyReturnType(node);
  if (returnClass.kind === 'helper') {
    return { kind: 'helper', note: `${name} returns \`${returnClass.typeText}\`, not a result type: not registered` };
  }
  if (returnClass.kind === 'error') {
    diagnostics.push(createDiagnostic('VITRINE_FUNCTION_200', returnClass.node, returnClass.message, { plugin, functionName: name }));
    return { kind: 'failed' };
  }
  const before = diagnostics.length;
  const signature = generateSchema(node, name, exported.docs, chain, { plugin }, diagnostics);
  if (diagnostics.length > before) return { kind: 'failed' };
  const location = locationOf(node);
  return {
    kind: 'registered',
    warnings: signature.warnings,
    entry: {
      name,
      return_type: returnClass.returnType,
      async: returnClass.async,
      parameters: signature.parameters,
      reporter_parameter: signature.reporterParameter,
      signal_parameter: signature.signalParameter,
      schema: signature.schema,
      source: { file: path.relative(pluginDir, location.file).split(path.sep).join('/'), line: location.line },
    },
  };
}
