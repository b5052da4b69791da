/**
 * @module shape-result
 * The result as a delivery shapes it before encoding: a mesh within its triangle budget, a
 * volume resized and retyped. Point clouds and images pass unchanged. Runs on the encode
 * worker thread.
 */
import type { StoredResult } from '../results/stored-result.ts';
import type { DeliveryOptions } from './delivery-options.ts';
import { shapeVolume } from './shape-volume.ts';
import { simplifyMesh } from '../geometry/simplify-mesh.ts';
import { hasSteps } from '../results/volume-axes.ts';

const NO_SHAPING: DeliveryOptions = Object.freeze({});

/** The part of the options that shapes the result (a key for the shaped result's cache). */
export function shapingOptions(options: DeliveryOptions): DeliveryOptions {
  const { max_triangles, dtype, window, max_dim, segment, t, c } = options;
  // The usual request shapes nothing: no object is made for it.
  const given = { max_triangles, dtype, window, max_dim, segment, t, c };
  if (Object.values(given).every((v) => v === undefined)) return NO_SHAPING;
  return Object.fromEntries(Object.entries(given).filter(([, v]) => v !== undefined)) as DeliveryOptions;
}

/**
 * True when shaping would change this result (a mesh over its budget, a volume retyped,
 * windowed or over max_dim, a step taken of a volume with time or channels). Checked before a trip to the worker thread, whose answer would
 * be a second copy of an unchanged result.
 */
export function changesResult(result: StoredResult, options: DeliveryOptions): boolean {
  if (options.segment !== undefined) return true;
  if (result.type === 'mesh') return options.max_triangles !== undefined && result.indices.length / 3 > options.max_triangles;
  if (result.type !== 'volume') return false;
  // A volume with time or channels always travels as one of its steps.
  if (hasSteps(result)) return true;
  const reduces = options.max_dim !== undefined && result.shape.some((n) => n > options.max_dim!);
  return reduces || options.dtype !== undefined || options.window !== undefined;
}

/**
 * True when shaping only takes a step of a volume with time or channels: a view onto the
 * result's memory, made at once where it is asked for (no work to send to a thread).
 */
export function onlyViews(result: StoredResult, options: DeliveryOptions): boolean {
  if (result.type !== 'volume' || !hasSteps(result)) return false;
  return typeof (options.c ?? 0) === 'number' && options.dtype === undefined && options.window === undefined && options.max_dim === undefined;
}

export async function shapeResult(result: StoredResult, options: DeliveryOptions): Promise<StoredResult> {
  if (result.type === 'mesh' && options.max_triangles !== undefined) return simplifyMesh(result, options.max_triangles);
  if (result.type === 'volume') return shapeVolume(result, options);
  return result;
}
