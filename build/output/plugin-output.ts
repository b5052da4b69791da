/**
 * @module plugin-output
 * A built plugin held in memory: its bundle folder's files by relative path. Writing and
 * checking both work from this, so `--check` compares exactly what a build would write.
 */
export interface PluginOutput {
  name: string;
  /** Relative posix path in the bundle folder → bytes. */
  files: Map<string, Buffer>;
  functionCount: number;
  specimenCount: number;
  notes: string[];
}
