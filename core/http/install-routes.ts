/**
 * @module install-routes
 * Every route group of the API, the viewer and the browser client, in one list.
 */
import type { FastifyInstance } from 'fastify';
import { AnnotationForms } from '../annotations/annotation-forms.ts';
import { RoomMarkUnits } from '../exports/room-mark-units.ts';
import { clientRoute } from './viewer/routes-client.ts';
import type { HostContext } from '../host-context.ts';
import type { Replays } from '../history/replays.ts';
import type { MeshLods } from '../meshes/mesh-lods.ts';
import type { VolumePyramids } from '../pyramid/volume-pyramids.ts';
import type { RoomsReader } from './people/install-people.ts';
import type { RoomReaders } from '../people/room-readers.ts';
import { mcpRoutes } from './mcp/routes-mcp.ts';
import type { HeadsetCalls } from '../mcp/mcp-tool.ts';
import { viewerRoutes } from './viewer/routes-viewer.ts';
import { zarrRoutes } from './zarr/routes-zarr.ts';
import { annotationRoutes } from './annotations/routes-annotations.ts';
import { blobRoutes } from './blobs/routes-blobs.ts';
import { meshRoutes } from './meshes/routes-meshes.ts';
import websocket from '@fastify/websocket';
import { SMALL_FRAME_BYTES } from './socket-limits.ts';
import { socketError } from './socket-errors.ts';
import { historyRoutes } from './rooms/routes-history.ts';
import { presenceRoutes } from './rooms/routes-presence.ts';
import { jobRoutes } from './jobs/routes-jobs.ts';
import { publishedRoutes } from './published/routes-published.ts';
import { remoteRoutes } from './remote/routes-remotes.ts';
import { remoteStoreRoutes } from './remote/routes-remote-store.ts';
import { roomImageRoutes } from './rooms/routes-room-image.ts';
import { roomRoutes } from './rooms/routes-rooms.ts';
import { precomputedAnnotationRoutes } from './annotations/routes-precomputed-annotations.ts';
import { sceneRoutes } from './scenes/routes-scenes.ts';
import { editRoutes } from './edits/routes-edits.ts';
import type { LabelsEditing } from '../edits/service/labels-editing.ts';
import { snapshotRoutes } from './snapshots/routes-snapshots.ts';
import { neuroglancerRoutes } from './rooms/routes-neuroglancer.ts';
import { processingRoutes } from './functions/routes-processing.ts';
import { pluginRoutes } from './functions/routes-plugins.ts';
import { provenanceRoutes } from './rooms/routes-provenance.ts';
import { specimenDataRoutes } from './specimens/routes-specimen-data.ts';
import { specimenRoutes } from './specimens/routes-specimens.ts';
import { uploadRoutes } from './uploads/routes-uploads.ts';

/** What some route groups alone read, handed to them here rather than shared in the `HostContext`. */
export interface OwnRouteServices {
  /** Whether a request may read one of the rooms a snapshot it names was taken of. */
  readable: RoomsReader;
  /** Where a route that keeps a room open to its client (a socket) registers, to be ended once the client may no longer read the room. */
  readers: Pick<RoomReaders, 'register'>;
  /** Where the headset tools of `/mcp` go (the agent sockets). */
  headsets: HeadsetCalls;
  /** The OME-Zarr pyramids of held volumes (the store routes). */
  pyramids: VolumePyramids;
  /** Held results' surfaces in levels of detail (their routes, and the Neuroglancer state). */
  meshes: MeshLods;
  /** Other rooms' logs played into rooms (the history routes). */
  replays: Replays;
  /** Edits of rooms' labels layers. */
  editing: LabelsEditing;
}

export async function installRoutes(app: FastifyInstance, ctx: HostContext, own: OwnRouteServices): Promise<void> {
  const { readable, readers, headsets, meshes } = own;
  await app.register(specimenRoutes, { ctx });
  await app.register(specimenDataRoutes, { ctx });
  await app.register(processingRoutes, { ctx });
  await app.register(jobRoutes, { ctx });
  await app.register(zarrRoutes, { ctx: { resultIds: ctx.resultIds, delivery: ctx.delivery, pyramids: own.pyramids } });
  await app.register(meshRoutes, { ctx: { resultIds: ctx.resultIds, editing: ctx.editing, options: ctx.options, meshes } });
  await app.register(blobRoutes, { ctx });
  await app.register(uploadRoutes, { ctx });
  await app.register(publishedRoutes, { ctx, published: ctx.published });
  await app.register(remoteRoutes, { ctx });
  await app.register(remoteStoreRoutes, { ctx });
  await app.register(roomRoutes, { ctx });
  await app.register(roomImageRoutes, { ctx });
  // One host's forms of its rooms' lists (JSON, CSV, precomputed), shared by both route groups.
  const forms = new AnnotationForms(ctx.annotations);
  const units = new RoomMarkUnits(ctx);
  await app.register(annotationRoutes, { ctx: { options: ctx.options, files: ctx.files, annotations: ctx.annotations, forms, units } });
  await app.register(precomputedAnnotationRoutes, { ctx: { options: ctx.options, forms } });
  await app.register(sceneRoutes, { ctx, readable });
  await app.register(editRoutes, { ctx, editing: own.editing });
  await app.register(snapshotRoutes, { ctx, readable });
  await app.register(neuroglancerRoutes, { ctx: { ...ctx, meshes } });
  // WebSockets for the whole host (live poses, agent sockets; a relay's workers too), small frames unless a route opens its sockets with a larger limit.
  await app.register(websocket, { errorHandler: socketError, options: { maxPayload: SMALL_FRAME_BYTES, perMessageDeflate: false } });
  await app.register(historyRoutes, { ctx: { history: ctx.history, options: ctx.options, replays: own.replays } });
  await app.register(presenceRoutes, { ctx, readers });
  await app.register(provenanceRoutes, { ctx });
  await app.register(pluginRoutes, { ctx });
  await app.register(mcpRoutes, { ctx, headsets });
  await app.register(clientRoute);
  if (ctx.options.viewer) await app.register(viewerRoutes);
}
