/**
 * @module analyze-plugin
 * One plugin folder → its manifest functions and specimens, the thumbnails to copy, and
 * notes about exported helpers that are not registered.
 */
import type { Project } from 'ts-morph';
import type { ManifestFunction, ManifestSpecimen } from '../../core/registry/manifest-types.ts';
import type { BuildDiagnostic, SourceLocation } from '../diagnostics/build-diagnostic.ts';
import type { ParamChain } from '../schema/param-parser.ts';
import { readSpecimens } from '../specimens/read-specimens.ts';
import { analyzeFunction } from './analyze-function.ts';
import { analyzeSpecimens, type ThumbnailCopy } from './analyze-specimens.ts';
import { findExportedFunctions } from './find-exported-functions.ts';
import type { PluginSource } from './find-plugins.ts';

export interface PluginAnalysis {
  plugin: PluginSource;
  functions: ManifestFunction[];
  specimens: ManifestSpecimen[];
  thumbnails: ThumbnailCopy[];
  /** Where each specimen id is declared. */
  specimenLocations: Map<string, SourceLocation>;
  notes: string[];
  /** What the build reports about the plugin and goes on (warnings). */
  warnings: BuildDiagnostic[];
}

export function analyzePlugin(project: Project, plugin: PluginSource, chain: ParamChain, diagnostics: BuildDiagnostic[]): PluginAnalysis {
  const sourceFile = project.getSourceFileOrThrow(plugin.entry);
  const functions: ManifestFunction[] = [];
  const notes: string[] = [];
  const warnings: BuildDiagnostic[] = [];
  const attempted = new Set<string>();
  for (const exported of findExportedFunctions(sourceFile)) {
    if (exported.name === 'default') {
      notes.push('the default export is not registered: export specimen functions by name');
      continue;
    }
    const analysis = analyzeFunction(exported, plugin.dir, plugin.name, chain, diagnostics);
    if (analysis.kind === 'registered') {
      functions.push(analysis.entry);
      warnings.push(...analysis.warnings);
    }
    if (analysis.kind === 'helper') notes.push(analysis.note);
    // A function that failed still counts as declared, so specimens naming it do not add noise.
    if (analysis.kind !== 'helper') attempted.add(exported.name);
  }
  const declared = readSpecimens(sourceFile, plugin.name, diagnostics);
  const { specimens, thumbnails, locations } = analyzeSpecimens(declared, attempted, plugin.dir, plugin.name, diagnostics);
  return { plugin, functions, specimens, thumbnails, specimenLocations: locations, notes, warnings };
}
