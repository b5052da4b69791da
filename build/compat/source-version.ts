/**
 * @module source-version
 * A plugin's version for a manifest that carries none (written before manifests had one):
 * read from its source folder as the build reads it (manifest/plugin-version.ts). A manifest's
 * own `version` always wins; without a source folder it is `0.0.0`.
 */
import path from 'node:path';
import { statedVersion } from '../manifest/plugin-version.ts';
import { PLUGIN_ENTRIES } from '../plugins/find-plugins.ts';
import { UNVERSIONED, type VersionedManifest } from './compat-report.ts';

/** `manifest` with its `version` filled in from `pluginDir` when it has none. */
export function withVersion(manifest: VersionedManifest, pluginDir: string | null): VersionedManifest {
  if (typeof manifest.version === 'string') return manifest;
  if (pluginDir === null) return { ...manifest, version: UNVERSIONED };
  const runtime = manifest.runtime === 'python' ? 'python' : 'node';
  return { ...manifest, version: statedVersion({ dir: pluginDir, entry: path.join(pluginDir, PLUGIN_ENTRIES[runtime]), runtime }).version };
}
