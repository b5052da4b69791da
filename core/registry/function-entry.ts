/**
 * @module function-entry
 * A registered function as the host holds it: its schema and parameter layout (from a
 * manifest, a code registration or a relayed worker) and where it runs.
 */
import type { FunctionInfo, ParameterSchema } from '../wire/wire-types.ts';
import type { ManifestFunction } from './manifest-types.ts';

/** Where a function's code lives, which decides the invoker that runs it. */
export type FunctionSource =
  /** An export of a built plugin bundle: on the worker-thread pool, or (`python`) in a Python process. */
  | {
      kind: 'bundle';
      modulePath: string;
      exportName: string;
      /** The code's version in cache keys and worker imports. */
      version: string;
      runtime?: 'node' | 'python';
      /** The bundle id: SHA-256 of its manifest.json. */
      bundle?: string;
      /** The version its author gave the plugin. */
      pluginVersion?: string;
    }
  /** A function registered in code, run on the main thread (it cannot move to a worker). */
  | { kind: 'inline'; fn: (...args: unknown[]) => unknown }
  /** A function of a worker connected to this relay. */
  | { kind: 'remote'; workerId: string; remoteName: string };

export interface FunctionEntry extends Pick<ManifestFunction, 'name' | 'return_type' | 'schema' | 'parameters' | 'async'> {
  source: FunctionSource;
  /** The plugin it came from, when it came from one. */
  plugin: string | null;
}

/** The entry of function `f` as a manifest lists it, run from `source`. */
export function toFunctionEntry(f: Omit<FunctionEntry, 'source' | 'plugin'>, source: FunctionSource, plugin: string | null): FunctionEntry {
  return { name: f.name, return_type: f.return_type, schema: f.schema, parameters: f.parameters, async: f.async, source, plugin };
}

/** The `value` parameters' names, in order: what positional `args` map onto. */
export function valueParameterNames(entry: FunctionEntry): string[] {
  return entry.parameters.filter((p) => p.kind === 'value').map((p) => p.name);
}

/** The plugin's version and bundle id, for a function that came from a bundle. */
export function bundleOf(entry: FunctionEntry): { version: string; bundle: string } | null {
  const source = entry.source;
  return source.kind === 'bundle' ? { version: source.pluginVersion ?? '0.0.0', bundle: source.bundle ?? source.version } : null;
}

/** `{bundle}` naming the version that computes `entry` on a compute node, for a function from a bundle; else nothing. */
export function pinnedBundle(entry: FunctionEntry): { bundle?: string } {
  const made = bundleOf(entry);
  return made ? { bundle: made.bundle } : {};
}

/** Function listing entry: `{name, schema, return_type}` plus a little more. */
export function toFunctionListing(entry: FunctionEntry): FunctionInfo {
  const bundle = bundleOf(entry);
  return {
    name: entry.name,
    schema: entry.schema as unknown as ParameterSchema,
    return_type: entry.return_type,
    async: entry.async,
    plugin: entry.plugin,
    version: bundle?.version ?? null,
  };
}
