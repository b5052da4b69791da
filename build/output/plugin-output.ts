/**
 * @module plugin-output
 * A built plugin held in memory: its bundle folder's files by relative path. Writing and
 * checking both work from this, so `--check` compares exactly what a build would write.
 */
import type { BuildDiagnostic } from '../diagnostics/build-diagnostic.ts';

export interface PluginOutput {
  name: string;
  /** Relative posix path in the bundle folder → bytes. */
  files: Map<string, Buffer>;
  functionCount: number;
  specimenCount: number;
  notes: string[];
  /** Warnings of its build (its output is whole): printed, and an error under `--check`. */
  warnings: BuildDiagnostic[];
}
