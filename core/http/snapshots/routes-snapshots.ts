/**
 * @module routes-snapshots
 * Snapshots of rooms. `POST /api/rooms/{room_id}/snapshots` records the room (201 `{id, url}`);
 * `GET /api/snapshots/{id}` answers the record's bytes as they were hashed into its id (so
 * anyone can check them), the same forever (`immutable`), its id and time taken in headers, 410
 * once its bytes were lost although pinned; with `?format=bundle`, the snapshot as a session
 * file to keep or take to another host, which `POST /api/snapshots` takes in
 * (routes-session-import.ts). A snapshot answers (in every form, verified or restored) only
 * those who may read one of the rooms it was taken of; to anyone else it is an unknown snapshot.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { SNAPSHOT_CREATED_HEADER } from '../../wire/snapshot-types.ts';
import type { HostContext } from '../../host-context.ts';
import type { RoomsReader } from '../people/install-people.ts';
import type { SnapshotReader } from '../../snapshots/service/room-snapshots.ts';
import { roomOf } from '../request-input.ts';
import { ROOM_PARAMS, type RoomParams } from '../route-inputs.ts';
import { IMMUTABLE } from '../blobs/routes-blobs.ts';
import { sessionImportRoute } from './routes-session-import.ts';
import { Readable } from 'node:stream';
import { SESSION_MEDIA_TYPE } from '../../snapshots/session-layout.ts';

const SNAPSHOT_QUERY = { type: 'object', properties: { format: { enum: ['json', 'bundle'] } } };
const SNAPSHOT_PARAMS = { type: 'object', required: ['id'], properties: { id: { type: 'string', pattern: '^[0-9a-f]{64}$' } } };

/** What the snapshot routes read from their host. */
export type SnapshotRouteDeps = Pick<HostContext, 'snapshots' | 'options' | 'rooms'>;

/** A snapshot as a session file: its document and every byte it pins, an attachment to keep. */
function sendSession(reply: FastifyReply, id: string, session: { chunks: Uint8Array[]; length: number }): FastifyReply {
  return reply
    .header('cache-control', IMMUTABLE)
    .header('content-disposition', `attachment; filename="${id}.vitrine"`)
    .header('content-length', String(session.length))
    .type(SESSION_MEDIA_TYPE)
    .send(Readable.from(session.chunks.map((chunk) => Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength)), { objectMode: false }));
}

export async function snapshotRoutes(app: FastifyInstance, { ctx, readable }: { ctx: SnapshotRouteDeps; readable: RoomsReader }): Promise<void> {
  // A snapshot is read by whoever may read one of the rooms it was taken of; to anyone else it is not there.
  const readerOf = (request: FastifyRequest): SnapshotReader => (rooms) => readable(request, rooms);

  app.post<RoomParams>(
    '/api/rooms/:room_id/snapshots',
    {
      schema: {
        summary: 'Record a room as a snapshot: its scene, view and annotations, each layer’s bytes pinned',
        description:
          '201 `{"id", "url", "log_seq"}`: `id` is the SHA-256 of the snapshot’s canonical JSON (the same room unchanged gives the same id), ' +
          '`url` opens it in the viewer, `log_seq` is the room log’s entry recording it. ' +
          'Every layer’s result is computed (or taken from the cache) and kept `--snapshot-ttl` seconds whatever the room does next.',
        params: ROOM_PARAMS,
      },
    },
    async (request, reply) => {
      const roomId = roomOf(ctx, request.params.room_id);
      const taken = await ctx.snapshots.create(roomId);
      // The room hears of it (with who took it, when known), as it hears of every other change.
      await ctx.rooms.announce(roomId, 'snapshot', taken).catch(() => {});
      return reply.code(201).send(taken);
    },
  );

  await app.register(sessionImportRoute, { ctx });

  app.get<{ Params: { id: string }; Querystring: { format?: 'json' | 'bundle' } }>(
    '/api/snapshots/:id',
    {
      schema: {
        summary: 'A snapshot of a room, the same forever',
        description:
          '`{annotations, scene: {layers, active}, view}` as compact JSON, keys sorted: exactly the bytes whose SHA-256 is the id. Each layer’s ' +
          '`result` names its bytes by blob id (`data_url` is `/api/blobs/{blob_id}`). `ETag` is `"<id>"`; `Last-Modified` and ' +
          '`X-Snapshot-Created` (milliseconds since the epoch) say when it was first taken. ' +
          '404 when unknown, past its time-to-live, or taken of rooms none of which the request may read; 410 when its bytes were lost anyway. ' +
          'Restore it into a room with `PUT /api/rooms/{room}/scene ' +
          '{"snapshot": id}`. With `?format=bundle`: the snapshot as a session file (`application/x-tar`, `<id>.vitrine`, an attachment) ' +
          'holding its document and every byte it pins, which `POST /api/snapshots` takes in on any host.',
        params: SNAPSHOT_PARAMS,
        querystring: SNAPSHOT_QUERY,
      },
    },
    async (request, reply) => {
      if (request.query.format === 'bundle') return sendSession(reply, request.params.id, await ctx.snapshots.session(request.params.id, readerOf(request)));
      const snapshot = await ctx.snapshots.get(request.params.id, readerOf(request));
      // The body is sent as stored, never re-serialised: hashing it must give the id.
      return reply
        .header('cache-control', IMMUTABLE)
        .header('etag', `"${snapshot.id}"`)
        .header('last-modified', new Date(snapshot.created).toUTCString())
        .header(SNAPSHOT_CREATED_HEADER, String(snapshot.created))
        .type('application/json; charset=utf-8')
        .send(snapshot.json);
    },
  );

  app.post<{ Params: { id: string } }>(
    '/api/snapshots/:id/verify',
    {
      schema: {
        summary: 'Whether a snapshot can be made again: each layer computed anew with the plugin version it pinned',
        description:
          '`{"snapshot", "layers": [{"id", "status", "plugin", "version", "result_id", "computed_result_id"?, "detail"?}]}`: `status` is `same` ' +
          '(the same result id), `differs` (with both ids) or `unavailable` (its version is no longer kept, or it cannot be computed here). ' +
          'A layer showing an image read in place asks its remote again for the version (ETag, else Last-Modified) of each key it read: ' +
          '`differs` once one moved, with `changed` [{"key", "recorded", "now"}] and a `detail` naming them. ' +
          '404 as `GET /api/snapshots/{id}` answers it.',
        params: SNAPSHOT_PARAMS,
      },
    },
    async (request, reply) => reply.header('cache-control', 'no-store').send(await ctx.snapshots.verify(request.params.id, readerOf(request))),
  );
}
