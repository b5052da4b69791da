/**
 * @module vitrine
 * The plugin SDK: `import type { Integer, Color, VolumeInput, MeshResult } from 'vitrine'`.
 * Also exports the envelope decoder for clients and tests, and where a volume's voxels sit in
 * physical space (volume-frame.ts), for functions that take physical points.
 */
export type {
  ImageDType,
  ImageResult,
  MeshResult,
  PointCloudResult,
  ResultType,
  SpecimenResult,
  TaggedResult,
  VolumeArrays,
  VolumeDType,
  VolumeOf,
  VolumeResult,
} from './sdk/result-types.ts';
export type { Integer, ProgressReporter, SpecimenDeclaration } from './sdk/plugin-types.ts';
export type { AnyInput, Color, ImageInput, InputKind, InputReference, MeshInput, PointCloudInput, VolumeInput } from './sdk/input-types.ts';
export { specimenInput } from './sdk/specimen-input.ts';
export { volumeBox, volumeCentre, volumeFrameOf, voxelAt, voxelCentre, voxelCoordinates } from './sdk/volume-frame.ts';
export type { Triple, VolumeFrame, VolumeGrid } from './sdk/volume-frame.ts';
export { decodeEnvelope, EnvelopeDecodeError } from './envelope/decode-envelope.ts';
export type { DecodedEnvelope, DecodedMesh, DecodedVolume } from './envelope/decode-envelope.ts';
