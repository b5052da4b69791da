/**
 * @module manifest-types
 * The shape of `manifest.json` in a plugin bundle: written by `vitrine build`
 * (build/manifest/write-manifest.ts), read by the host (core/registry/manifest-loader.ts).
 */
import type { ResultType } from '../sdk/result-types.ts';

/** Bumped when the manifest layout changes incompatibly. */
export const MANIFEST_VERSION = 1;

/** How a parameter is filled: from the request (`value`) or injected by the host. */
export type ParameterKind = 'value' | 'reporter' | 'signal';

export interface ManifestParameter {
  name: string;
  kind: ParameterKind;
}

export interface ManifestFunction {
  /** The export name, also the registered function name. */
  name: string;
  return_type: ResultType;
  /** Declared `async` or returning a Promise. */
  async: boolean;
  /** Every parameter in declaration order, injected ones included. */
  parameters: ManifestParameter[];
  /** Name of the parameter that receives the ProgressReporter, or null. */
  reporter_parameter: string | null;
  /** Name of the parameter that receives the AbortSignal, or null. */
  signal_parameter: string | null;
  /** JSON Schema (draft 2020-12) of the `value` parameters. */
  schema: Record<string, unknown>;
  /** Where the function is declared, relative to the plugin folder. */
  source: { file: string; line: number };
}

export interface ManifestSpecimen {
  id: string;
  function_name: string;
  display_name: string;
  description: string;
  tags: string[];
  story: string | null;
  /** A path relative to the bundle folder, a `data:` URI, or null. */
  thumbnail: string | null;
  /** `#rrggbb` the specimen declares for its mesh; absent when it declares none. */
  color?: string;
}

export interface PluginManifest {
  $comment: string;
  manifest_version: typeof MANIFEST_VERSION;
  plugin: string;
  /** The version its author gave it (package.json, `__version__`, pyproject.toml), else `0.0.0`. */
  version?: string;
  /**
   * What the functions run in: absent (or `node`) for a TypeScript plugin, whose `bundle` is the
   * ESM bundle; `python` for a Python plugin, whose `bundle` is its `plugin.py` (the folder holds
   * the plugin's own files beside it).
   */
  runtime?: 'node' | 'python';
  /** The entry file, relative to the bundle folder. */
  bundle: string;
  /**
   * Every other file of the bundle folder (relative posix path) with its SHA-256 in hex: the
   * host checks them before it loads the plugin. Absent only in manifests written by hand.
   */
  files?: Record<string, string>;
  functions: ManifestFunction[];
  specimens: ManifestSpecimen[];
}
