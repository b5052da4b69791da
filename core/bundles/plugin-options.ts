/**
 * @module plugin-options
 * The host options of plugin versions and trust: how many versions of a plugin are kept side
 * by side, which keys bundles are signed with, and what a signature decides.
 */
export type SignatureMode = 'off' | 'warn' | 'require';

export interface PluginOptions {
  /** Versions of each plugin kept side by side after a reload brings a new one (`--plugin-versions`). @defaultValue 3 */
  pluginVersions?: number;
  /** A folder of trusted Ed25519 public keys (PEM) bundles are checked against (`--trust-keys`). @defaultValue null */
  trustKeys?: string | null;
  /** What a bundle's signature decides (`--signatures`): `off`, `warn` or `require`. @defaultValue `warn` with trustKeys, else `off` */
  signatures?: SignatureMode | null;
  /** Where checked bundles are kept by bundle id; null: a folder of this process's own in the temporary folder. @defaultValue null */
  keptBundlesDir?: string | null;
}

export const PLUGIN_DEFAULTS = {
  pluginVersions: 3,
  trustKeys: null as string | null,
  signatures: null as SignatureMode | null,
  keptBundlesDir: null as string | null,
};

/** The signature mode in force: the one given, else `warn` when keys are trusted, else `off`. */
export function signatureMode(options: Pick<PluginOptions, 'signatures' | 'trustKeys'>): SignatureMode {
  const mode = options.signatures ?? (options.trustKeys ? 'warn' : 'off');
  if (mode !== 'off' && mode !== 'warn' && mode !== 'require') throw new TypeError(`signatures must be off, warn or require, got '${String(mode)}'`);
  return mode;
}
