/**
 * @module vitrine/client
 * The client SDK of a vitrine host, for browsers and Node (only `fetch`, `AbortController`,
 * `TextDecoder` and typed arrays; no Node built-ins). This is the package entry
 * `vitrine/client`; inside `core/` import from the defining files instead.
 *
 * - {@link createClient}: every host route as a typed method, `load` (a specimen) and
 *   `runFunction` (a function) for the job flow, and
 *   `followJob` / `followRoom`: a job's or a room's Server-Sent Events as async iterators.
 * - {@link decodeEnvelope}: the binary envelope of `/data` to typed arrays. The arrays are views
 *   onto the given bytes; a block is copied only when its offset is not aligned for its
 *   element type (typed array views require alignment).
 * - {@link decodeTypedResult}: the typed result JSON of `/invoke` and `/jobs/{id}/result` to typed arrays.
 * - Errors: {@link VitrineHttpError} (with `status`, `detail`, `code`) and its subclasses per
 *   status, {@link VitrineJobError} for a job that ended in `error`.
 */
export { createClient, VitrineClient } from './client.ts';
export type { ClientOptions, DataOptions, InvokeOptions } from './client-options.ts';
export { SceneClient } from './scene-client.ts';
export type { ReplaceOptions } from './scene-client.ts';
export { MeshLevels } from './mesh-levels.ts';
export { LayerEdits } from './layer-edits.ts';
export { RemoteImages } from './remote-images.ts';
export { PeopleClient } from './people-client.ts';
export type { EditOptions, EditPage, LabelsAtVersion } from './layer-edits.ts';
export type * from '../wire/edit-types.ts';
export type * from '../wire/mesh-level-types.ts';
export type { JobFlowOptions, LoadOptions } from './load-job.ts';
export { RoomAnnotations } from './room-annotations.ts';
export type { AnnotationChange, VersionCheck } from './room-annotations.ts';
export { AnnotationMirror } from './annotation-mirror.ts';
export type { FollowJobOptions, FollowOptions, FollowRoomOptions } from './follow-events.ts';
export type { LiveWho } from './live-url.ts';
export { SseParser } from './sse-parser.ts';
export type { SseMessage } from './sse-parser.ts';
export { decodeEnvelope, EnvelopeDecodeError } from '../envelope/decode-envelope.ts';
export type { DecodedEnvelope, DecodedMesh, DecodedVolume } from '../envelope/decode-envelope.ts';
export { valueRange } from '../envelope/value-range.ts';
export { decodeTypedResult, TypedResultError } from './decode-typed-result.ts';
export { volumeBox, volumeCentre, volumeFrameOf, voxelAt, voxelCentre, voxelCoordinates } from '../sdk/volume-frame.ts';
export type { Triple, VolumeFrame, VolumeGrid } from '../sdk/volume-frame.ts';
export { fromEnvelope, isEnvelopeType } from './read-data-response.ts';
export {
  InvalidRequestError,
  isAbortError,
  JobGoneError,
  JobRunningError,
  EventStreamUnavailableError,
  NotFoundError,
  ServerError,
  VitrineHttpError,
  VitrineJobError,
} from './errors.ts';
export type { HttpErrorKind } from './errors.ts';
export type { FetchLike } from './transport.ts';
export type * from '../wire/decoded-types.ts';
export type * from '../wire/wire-types.ts';
export type * from '../wire/room-types.ts';
export type { AccessAnswer, Asker, PublicAccess, RoomAccess } from '../wire/room-access.ts';
export { mayUse } from '../wire/room-access.ts';
export type * from '../wire/snapshot-types.ts';
export type * from '../wire/agent-types.ts';
export type * from '../wire/scene-types.ts';
export type * from '../wire/provenance-types.ts';
export type * from '../wire/live-types.ts';
