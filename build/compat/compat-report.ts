/**
 * @module compat-report
 * The verdict on two builds: every change, and per plugin its versions and whether its
 * breaking changes are allowed. A breaking change is allowed only when the plugin's major
 * version went up (semver: `1.4.2` → `2.0.0`); a manifest without a version counts as `0.0.0`.
 * The comparison fails when any breaking change is not allowed.
 */
import type { PluginManifest } from '../../core/registry/manifest-types.ts';
import { UNVERSIONED } from '../manifest/plugin-version.ts';
import type { ChangeClass, CompatChange } from './compat-change.ts';
import { compareFunctions, countFunctions } from './compare-functions.ts';

/** A manifest as this reads it: `version` may be missing in one written by an older build. */
export type VersionedManifest = PluginManifest & { version?: string };

export interface PluginVerdict {
  plugin: string;
  /** Its version in the earlier build (null: it was not there). */
  from: string | null;
  /** Its version now (null: it is gone). */
  to: string | null;
  major_bumped: boolean;
  breaking: number;
  /** False when it has breaking changes and its major version did not go up. */
  allowed: boolean;
}

export interface CompatReport {
  changes: CompatChange[];
  /** The plugins with any change, in name order. */
  plugins: PluginVerdict[];
  counts: Record<ChangeClass, number>;
  /** Functions compared: every name in either build, once. */
  functions: number;
  failed: boolean;
}

/** The major number of a semver version (a leading `v` is fine), or null when it is not one. */
export function majorOf(version: string): number | null {
  const match = /^\s*v?(\d+)\.\d+\.\d+(?:[-+].*)?\s*$/.exec(version);
  return match ? Number(match[1]) : null;
}

export function majorWentUp(from: string | null, to: string | null): boolean {
  if (from === null || to === null) return false;
  const before = majorOf(from);
  const after = majorOf(to);
  return before !== null && after !== null && after > before;
}

const versionOf = (manifest: VersionedManifest | undefined): string | null => (manifest ? (manifest.version ?? UNVERSIONED) : null);

function verdicts(before: VersionedManifest[], after: VersionedManifest[], changes: CompatChange[]): PluginVerdict[] {
  const names = [...new Set(changes.map((change) => change.plugin))].sort();
  return names.map((plugin) => {
    const from = versionOf(before.find((m) => m.plugin === plugin));
    const to = versionOf(after.find((m) => m.plugin === plugin));
    const majorBumped = majorWentUp(from, to);
    const breaking = changes.filter((change) => change.plugin === plugin && change.class === 'breaking').length;
    return { plugin, from, to, major_bumped: majorBumped, breaking, allowed: breaking === 0 || majorBumped };
  });
}

/** Compares the manifests of an earlier build (`before`) with the current one's (`after`). */
export function compareBuilds(before: VersionedManifest[], after: VersionedManifest[]): CompatReport {
  const changes = compareFunctions(before, after);
  const plugins = verdicts(before, after, changes);
  const counts: Record<ChangeClass, number> = { breaking: 0, 'changes-results': 0, compatible: 0 };
  for (const change of changes) counts[change.class]++;
  return { changes, plugins, counts, functions: countFunctions(before, after), failed: plugins.some((p) => !p.allowed) };
}
