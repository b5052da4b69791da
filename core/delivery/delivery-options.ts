/**
 * @module delivery-options
 * What a delivery may ask for: how a result travels (its format, a mesh's triangle budget, a
 * volume's element type, window and size), never what is computed. The table of formats per
 * result type lives here, so parsing, checking and the format registry agree on it.
 */
import type { ResultType } from '../sdk/result-types.ts';

/** Element types a volume can be delivered as. */
export const DELIVERY_DTYPES = ['uint8', 'uint16', 'float32'] as const;
export type DeliveryDType = (typeof DELIVERY_DTYPES)[number];

/** Formats each result type can be delivered in; the first is its default. */
export const FORMATS_BY_TYPE: Readonly<Record<ResultType, readonly string[]>> = Object.freeze({
  mesh: ['envelope', 'glb', 'stl', 'obj', 'ply', 'vtk'],
  volume: ['envelope', 'npy'],
  point_cloud: ['json', 'ply'],
  image: ['json', 'png'],
});

/** Values of `compress`, and the one format each applies to. */
export const COMPRESS_FORMATS: Readonly<Record<string, string>> = Object.freeze({ meshopt: 'glb' });

/** Every option name, in the order they are documented. */
export const DELIVERY_OPTION_NAMES = ['format', 'compress', 'normals', 'max_triangles', 'dtype', 'window', 'max_dim', 'segment', 't', 'c'] as const;
export type DeliveryOptionName = (typeof DELIVERY_OPTION_NAMES)[number];

/** The result types each option applies to (`format` applies to all). */
export const OPTION_TYPES: Readonly<Record<DeliveryOptionName, readonly ResultType[]>> = Object.freeze({
  format: ['mesh', 'volume', 'point_cloud', 'image'],
  compress: ['mesh'],
  normals: ['mesh'],
  max_triangles: ['mesh'],
  dtype: ['volume'],
  window: ['volume'],
  max_dim: ['volume'],
  segment: ['volume'],
  t: ['volume'],
  c: ['volume'],
});

/** What `c` may name besides a channel index: a vector field's magnitude or its direction as RGB. */
export const VECTOR_MODES = ['magnitude', 'rgb'] as const;

/** Parsed delivery options; an absent field means "as the result is". */
export interface DeliveryOptions {
  format?: string;
  compress?: string;
  /**
   * Mesh as OBJ: `false` leaves out its normals, so faces are plain `f a b c` lines (all
   * Neuroglancer's OBJ reader takes); absent (the default), the normals go too.
   */
  normals?: false;
  /** Mesh: at most this many triangles (simplified when over). */
  max_triangles?: number;
  /** Volume: the delivered element type. */
  dtype?: DeliveryDType;
  /** Volume: the value range an integer dtype maps onto 0..2^bits-1 (default: the data's own). */
  window?: [number, number];
  /** Volume: every axis at most this many samples (block averaging; labels pick ids). */
  max_dim?: number;
  /**
   * Labels volume: the surface of this label id (or of every label, `all`) as a mesh, which
   * the other options then shape and encode as they would a mesh.
   */
  segment?: number | 'all';
  /** Volume with a time axis: the step delivered (default 0). */
  t?: number;
  /** Volume with channels: the channel delivered (default 0), or a vector field's `magnitude` or `rgb`. */
  c?: number | (typeof VECTOR_MODES)[number];
}

/** True when no option is set. */
export function isEmptyDelivery(options: DeliveryOptions): boolean {
  return DELIVERY_OPTION_NAMES.every((name) => options[name] === undefined);
}

/** The type a delivery of a `type` result sends: a mesh for a segment surface, else the type itself. */
export function deliveredType(type: ResultType, options: DeliveryOptions): ResultType {
  return options.segment !== undefined && type === 'volume' ? 'mesh' : type;
}

/**
 * True when no option says how the result travels: `t` and `c` only choose which step of it
 * travels, so a known client's profile still applies to the step it asked for.
 */
export function asksNothingOfTravel(options: DeliveryOptions): boolean {
  return DELIVERY_OPTION_NAMES.every((name) => name === 't' || name === 'c' || options[name] === undefined);
}

/** The default format of a result type (`envelope` or `json`). */
export function defaultFormat(type: ResultType): string {
  return FORMATS_BY_TYPE[type][0]!;
}

/**
 * A stable text of the options (fixed key order, defaults left out): the key of a delivery's
 * cached variants, the same on every host.
 */
export function deliveryKey(options: DeliveryOptions): string {
  return DELIVERY_OPTION_NAMES.filter((name) => options[name] !== undefined)
    .map((name) => {
      const value = options[name]!;
      return `${name}=${Array.isArray(value) ? value.join(',') : String(value)}`;
    })
    .join('&');
}
