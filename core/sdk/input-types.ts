/**
 * @module input-types
 * Parameter types beyond scalars that plugin authors write against: `Color`, and the four
 * input types through which one function takes another specimen's result (or an uploaded
 * file) as data.
 */
import type { ImageResult, MeshResult, PointCloudResult, VolumeResult } from './result-types.ts';

/**
 * An sRGB colour written `#rrggbb`. It is a plain `string` to the type checker; the build
 * reads the annotation and writes `{"type":"string","format":"color","pattern":"^#[0-9a-fA-F]{6}$"}`,
 * so clients show a colour picker and the host refuses anything else with a 400.
 *
 * @example
 * export function torus(colour: Color = '#d08030'): MeshResult { ... }
 */
export type Color = string;

/** What a request sends for an input parameter: another specimen's result, or an upload. */
export type InputReference =
  | {
      /** Any specimen of the parameter's type: static, dynamic or federated. */
      specimen: string;
      /** The specimen's own parameters (a dynamic specimen); defaults fill the rest. */
      params?: Record<string, unknown>;
    }
  | {
      /** The `upload_id` that `POST /api/uploads` answered. */
      upload: string;
    };

/** The input kinds, as written in the schema's `x-vitrine-input`. */
export type InputKind = 'mesh' | 'volume' | 'point_cloud' | 'image';

/**
 * A mesh the host resolved from a specimen or an upload before calling the function.
 * Declare a parameter `surface: MeshInput` and the function receives the mesh itself.
 */
export type MeshInput = MeshResult & { readonly type: 'mesh' };

/** A volume the host resolved before calling the function (`data`, `shape`, `dtype`, `spacing`, ...). */
export type VolumeInput = VolumeResult & { readonly type: 'volume' };

/** A point cloud the host resolved before calling the function. */
export type PointCloudInput = PointCloudResult & { readonly type: 'point_cloud' };

/** An image the host resolved before calling the function. */
export type ImageInput = ImageResult & { readonly type: 'image' };

/** Any input type. */
export type AnyInput = MeshInput | VolumeInput | PointCloudInput | ImageInput;
