/**
 * @module input-schema
 * The schema of an input parameter (a mesh, volume, point cloud or image taken from another
 * specimen or an upload), written by the build and read by the host and the viewer. The
 * `x-vitrine-input` keyword names the kind; the value is one of two shapes:
 * `{"specimen": id, "params": {...}}` or `{"upload": id}`.
 */
import type { InputKind } from '../sdk/input-types.ts';

export type { InputKind };

/** The keyword that marks an input parameter and names its kind. */
export const INPUT_KEYWORD = 'x-vitrine-input';

export const INPUT_KINDS: readonly InputKind[] = ['mesh', 'volume', 'point_cloud', 'image'];

/** The SDK type name of each kind (`VolumeInput`, ...). */
export const INPUT_TYPE_NAMES: Readonly<Record<InputKind, string>> = {
  mesh: 'MeshInput',
  volume: 'VolumeInput',
  point_cloud: 'PointCloudInput',
  image: 'ImageInput',
};

const ARTICLE: Readonly<Record<InputKind, string>> = { mesh: 'a mesh', volume: 'a volume', point_cloud: 'a point cloud', image: 'an image' };

/** The property schema of an input parameter of `kind` (key order is part of the manifest). */
export function inputSchema(kind: InputKind): Record<string, unknown> {
  return {
    type: 'object',
    [INPUT_KEYWORD]: kind,
    oneOf: [
      {
        title: 'specimen',
        description: `a specimen whose result is ${ARTICLE[kind]}, with its own parameters`,
        type: 'object',
        properties: { specimen: { type: 'string', minLength: 1 }, params: { type: 'object' } },
        required: ['specimen'],
        additionalProperties: false,
      },
      {
        title: 'upload',
        description: `an uploaded file that parses as ${ARTICLE[kind]}`,
        type: 'object',
        properties: { upload: { type: 'string', minLength: 1 } },
        required: ['upload'],
        additionalProperties: false,
      },
    ],
  };
}

/** The input kind a property schema declares, or undefined for any other parameter. */
export function inputKindOf(property: unknown): InputKind | undefined {
  if (!property || typeof property !== 'object') return undefined;
  const kind = (property as Record<string, unknown>)[INPUT_KEYWORD];
  return INPUT_KINDS.includes(kind as InputKind) ? (kind as InputKind) : undefined;
}
