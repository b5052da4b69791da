/**
 * @module type-errors
 * Type errors in plugin sources, as build errors. The schema generator already holds a
 * ts-morph program of every plugin entry and what it imports; asking that program for its
 * pre-emit diagnostics costs one type check, and a plugin that does not type-check must not
 * build (authors rely on `vitrine build` in CI). Each error is reported against the plugin
 * whose folder holds the file, with the compiler's own `TS` code and message.
 */
import path from 'node:path';
import { ts, type Project } from 'ts-morph';
import type { PluginSource } from '../plugins/find-plugins.ts';
import { createDiagnostic, type BuildDiagnostic } from './build-diagnostic.ts';

/** Input parameter types: the host hands the function the resolved result, not the reference. */
const INPUT_TYPES = new Set(['MeshInput', 'VolumeInput', 'PointCloudInput', 'ImageInput']);

/**
 * Where `file` gives an input parameter a default written as a plain reference
 * (`volume: VolumeInput = { specimen: 'ct-head-phantom' }`): the host replaces that default
 * with the resolved result before the call, so the reference's type is not the parameter's
 * and the compiler's complaint there is not an error of the plugin.
 */
function inputDefaultRanges(project: Project, file: string): Array<[number, number]> {
  const sourceFile = project.getSourceFile(file);
  if (!sourceFile) return [];
  const ranges: Array<[number, number]> = [];
  for (const fn of sourceFile.getFunctions()) {
    for (const param of fn.getParameters()) {
      const initializer = param.getInitializer();
      if (initializer && INPUT_TYPES.has(param.getTypeNode()?.getText() ?? '')) ranges.push([initializer.getStart(), initializer.getEnd()]);
    }
  }
  return ranges;
}

/** The plugin whose folder contains `file`, if any. */
function ownerOf(file: string, plugins: PluginSource[]): PluginSource | undefined {
  return plugins.find((plugin) => {
    const relative = path.relative(plugin.dir, file);
    return relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative);
  });
}

/**
 * Appends a diagnostic for each error the compiler finds in the plugins' own files. A type
 * error on a line where the build already reported one of its own errors is left out: ours
 * says more about the same mistake (a default of the wrong type, an unsupported parameter).
 */
export function collectTypeErrors(project: Project, plugins: PluginSource[], diagnostics: BuildDiagnostic[]): void {
  const reported = new Set(diagnostics.flatMap((d) => (d.location ? [`${path.resolve(d.location.file)}:${d.location.line}`] : [])));
  // Only the plugins' own files are checked: the SDK and libraries they import are not ours to
  // report, and checking them costs most of the time.
  const program = project.getProgram().compilerObject;
  for (const sourceFile of program.getSourceFiles()) {
    const file = path.resolve(sourceFile.fileName);
    const plugin = ownerOf(file, plugins);
    if (!plugin) continue;
    const references = inputDefaultRanges(project, file);
    const found = [...program.getSyntacticDiagnostics(sourceFile), ...program.getSemanticDiagnostics(sourceFile)];
    for (const diagnostic of found) {
      if (diagnostic.category !== ts.DiagnosticCategory.Error) continue;
      if (references.some(([from, to]) => (diagnostic.start ?? -1) >= from && (diagnostic.start ?? -1) < to)) continue;
      const { line, character } = sourceFile.getLineAndCharacterOfPosition(diagnostic.start ?? 0);
      if (reported.has(`${file}:${line + 1}`)) continue;
      const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, ' ');
      diagnostics.push(createDiagnostic(`TS${diagnostic.code}`, { file, line: line + 1, column: character + 1 }, message, { plugin: plugin.name }));
    }
  }
}
