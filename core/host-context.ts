/**
 * @module host-context
 * The services one host instance shares between its routes: registries, result service,
 * jobs and encoders. Built by assembly/assemble-host.ts, passed to each route group, which takes
 * a `Pick` of what it reads. What one or two route groups alone read (pyramids, levels of
 * detail, replays) is handed to them by http/install-routes.ts instead, and what federation
 * alone takes (the invokers, the reload's hooks) by its own port. (What a specimen's function,
 * type and schema are: registry/specimen-functions.ts.)
 */
import type { PluginHome, ReloadCounts } from './versions/reload-sources.ts';
import type { AnnotationStore } from './annotations/annotation-store.ts';
import type { EventHub } from './events/event-hub.ts';
import type { JobService } from './jobs/job-service.ts';
import type { ResolvedHostOptions } from './options.ts';
import type { FunctionRegistry } from './registry/function-registry.ts';
import type { SpecimenCatalog } from './registry/specimen-catalog.ts';
import type { JsonResultEncoder } from './serving/json-encoder.ts';
import type { PictureRunner } from './thumbnails/room-picture.ts';
import type { ResultIds } from './serving/result-ids.ts';
import type { DeliveryVariants } from './delivery/delivery-variants.ts';
import type { ResultSource } from './serving/result-source.ts';
import type { StaticInputs } from './inputs/static-inputs.ts';
import type { UploadStore } from './uploads/upload-store.ts';
import type { FileParser } from './workers/file-parser.ts';
import type { PublishedSpecimens } from './published/published-specimens.ts';
import type { RoomScenes } from './scenes/service/room-scenes.ts';
import type { LabelsEditing } from './edits/service/labels-editing.ts';
import type { RoomSnapshots } from './snapshots/service/room-snapshots.ts';
import type { RoomWorkspace } from './rooms/service/room-workspace.ts';
import type { RoomRecorder } from './history/room-recorder.ts';
import type { PresenceService } from './presence/presence-service.ts';
import type { RemoteData } from './remote/remote-data.ts';

/**
 * Runs after the host's own sources are reloaded, in the order added; what it returns is
 * merged into the reload's answer (a relay adds its workers' counts and new totals).
 */
export type AfterReloadHook = (counts: ReloadCounts) => Promise<Partial<ReloadCounts> | void>;

export interface HostContext {
  options: ResolvedHostOptions;
  functions: FunctionRegistry;
  catalog: SpecimenCatalog;
  /** Results as the routes see them: this host's, or the Redis service's. */
  results: ResultSource;
  /** Jobs as the routes see them: this host's, or the Redis service's. */
  jobs: JobService;
  json: JsonResultEncoder;
  /** Result ids (X-Result-Id) and the way from an id back to a held result. */
  resultIds: ResultIds;
  /** Delivery variants (shaped, encoded, compressed), made once on the encode thread. */
  delivery: DeliveryVariants;
  /** Pictures of what rooms show (PNG), drawn on the encode thread. */
  pictures: PictureRunner;
  /** Uploaded files (null with `--uploads off`). */
  uploads: UploadStore | null;
  /** Parses uploaded and static files off the event loop. */
  files: FileParser;
  /** Specimens published with `PUT /api/specimens/{id}`, listed in the catalog. */
  published: PublishedSpecimens;
  /** Rooms as shared workspaces: each room's entry (cache entry or shown specimen) and view. */
  rooms: RoomWorkspace;
  /** Rooms' scenes: their layers, computed through each room's cache; the active layer is the room's entry. */
  scenes: RoomScenes;
  /** Edits of rooms' labels layers (the edit routes, MCP and the agent's tools). */
  editing: LabelsEditing;
  /** Rooms' snapshots: immutable records of a scene, its view and marks, their bytes pinned. */
  snapshots: RoomSnapshots;
  /** Each room's annotations: this host's, or the Redis service's (scenes, snapshots and the Neuroglancer state read them too). */
  annotations: AnnotationStore;
  /** Each room's log: every change of its stores, in one order (`GET /api/rooms/{room}/log`). */
  history: RoomRecorder;
  /** Who is in each room (`GET /api/rooms/{room}/presence`, `presence` events) and their live poses. */
  presence: PresenceService;
  /** The remotes the operator named, every read from them, and the specimens published from them. */
  remotes: RemoteData;
  /** Static specimens read as input results. */
  staticInputs: StaticInputs;
  /** Host events, streamed to clients as Server-Sent Events. */
  events: EventHub;
  /** Plugin versions kept side by side, and how bundles are checked. */
  plugins: PluginHome;
  /** Reloads the specimens directory and plugin bundles, then runs the after-reload hooks. */
  reload(): Promise<ReloadCounts>;
}
