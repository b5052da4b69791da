/**
 * @module version-offers
 * What a layer row offers about the plugin version behind its layer: a pinned layer whose
 * plugin serves a newer version, "Update to 1.1.0"; a stale layer (its source no longer
 * computes, after a reload changed the plugin), "Keep 1.0.0" (pinned to the version that made
 * what it shows) and "Take 2.0.0" (the new version with the parameters that still fit its
 * schema, the others left to their defaults).
 */
import type { LayerSource, LayerStale } from '../../core/wire/scene-types.ts';
import type { FunctionInfo } from '../../core/wire/wire-types.ts';
import { checkValue } from '../panels/params/param-check.ts';
import type { LayerMade } from './layer-made.ts';

/** A change of a layer's source a row offers: a version to pin (absent: follow the newest) and the parameters to give. */
export interface VersionOffer {
  control: 'update' | 'keep' | 'take';
  label: string;
  title: string;
  version?: string;
  params?: Record<string, unknown>;
}

/** The version each plugin serves now, from the function listing (each function names its plugin and version). */
export function servedVersions(functions: readonly FunctionInfo[]): Map<string, string> {
  const served = new Map<string, string>();
  for (const fn of functions) if (typeof fn.plugin === 'string' && typeof fn.version === 'string') served.set(fn.plugin, fn.version);
  return served;
}

/** The parameters of `params` the function's schema still takes. */
export function fittingParams(params: Record<string, unknown>, fn: FunctionInfo | undefined): Record<string, unknown> {
  const properties = fn?.schema.properties ?? {};
  return Object.fromEntries(
    Object.entries(params).filter(([name, value]) => properties[name] !== undefined && checkValue(properties[name]!, value) === null),
  );
}

/** What the row of a layer offers, given what made it, whether it is stale, and what the host serves now. */
export function versionOffers(
  made: LayerMade | null,
  stale: LayerStale | undefined,
  source: LayerSource,
  served: ReadonlyMap<string, string>,
  functions: readonly FunctionInfo[],
): VersionOffer[] {
  if (!made?.plugin) return [];
  const now = served.get(made.plugin);
  if (stale) {
    const offers: VersionOffer[] = [];
    const keep = `Compute this layer with version ${made.version}, which made it`;
    if (made.version) offers.push({ control: 'keep', label: `Keep ${made.version}`, title: keep, version: made.version });
    if (now && now !== made.version && source.function !== undefined) {
      const params = fittingParams(source.params ?? {}, functions.find((fn) => fn.name === source.function));
      const dropped = Object.keys(source.params ?? {}).filter((name) => !(name in params));
      const title = `Follow ${made.plugin} ${now}` + (dropped.length > 0 ? `, without ${dropped.join(', ')} (left to the default)` : '');
      offers.push({ control: 'take', label: `Take ${now}`, title, params });
    }
    return offers;
  }
  if (!made.pinned || !now || now === made.version || now === made.pinned) return [];
  const title = `Compute this layer with version ${now} of ${made.plugin}, for everyone in the room`;
  return [{ control: 'update', label: `Update to ${now}`, title, version: now }];
}
