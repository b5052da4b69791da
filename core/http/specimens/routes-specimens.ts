/**
 * @module routes-specimens
 * /api/specimens: catalog, metadata, thumbnail, reload and /start.
 * (/data lives in routes-specimen-data.ts.)
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { SpecimenRecord } from '../../catalog/specimen-record.ts';
import { sendThumbnail } from '../send-opened.ts';
import { createHostError } from '../../errors.ts';
import type { HostContext } from '../../host-context.ts';
import { specimenOr404 } from '../../registry/specimen-functions.ts';
import { idParams, queryOf, ROOM_ID } from '../route-inputs.ts';
import { START_BODY, START_REPLY, startJob, type StartBody, type StartDeps } from '../jobs/start-job.ts';
import { toCatalogEntry, toSpecimenMetadata, type SpecimenViewDeps } from '../../registry/specimen-views.ts';
import type { RoomUse } from '../../people/room-access.ts';

type IdParams = { Params: { id: string } };
const params = idParams('id');

/**
 * The specimen `/start` names: its id, or (as the Ascribe-XR client sends) the function name
 * of exactly one dynamic specimen (the Ascribe-XR client starts jobs that way).
 */
function specimenForStart(ctx: Pick<SpecimenDeps, 'catalog'>, id: string): SpecimenRecord {
  const record = ctx.catalog.get(id);
  if (record) return record;
  const byFunction = ctx.catalog.list().filter((r) => r.is_dynamic && r.function_name === id);
  if (byFunction.length === 1) return byFunction[0]!;
  throw createHostError('SPC_ERR_SPECIMEN_NOT_FOUND', id);
}

/** What the specimen routes read from their host. */
export type SpecimenDeps = StartDeps & SpecimenViewDeps & Pick<HostContext, 'catalog' | 'reload'>;

export async function specimenRoutes(app: FastifyInstance, { ctx }: { ctx: SpecimenDeps }): Promise<void> {
  // Arrays published for a room's layers are that room's: listed only to a request naming it.
  const list = async (request: FastifyRequest<{ Querystring: { room?: string } }>) => {
    const room = request.query.room || undefined;
    return ctx.catalog
      .list()
      .filter((record) => record.room === undefined || record.room === room)
      .map((record) => toCatalogEntry(ctx, record));
  };
  // Naming a room reads it: a room closed to the request is not there (404), nor are its arrays.
  const roomListed = (request: FastifyRequest): RoomUse[] => {
    const room = (request.query as { room?: unknown } | undefined)?.room;
    return typeof room === 'string' && room !== '' ? [{ room, want: 'read' }] : [];
  };
  const listSchema = { schema: { querystring: queryOf({ room: ROOM_ID }) }, config: { roomAccess: roomListed } };
  app.get('/api/specimens', listSchema, list);
  app.get('/api/specimens/', listSchema, list);

  app.get('/api/specimens/reload', async () => ctx.reload());

  app.get<IdParams>('/api/specimens/:id', { schema: { params } }, async (request) => toSpecimenMetadata(ctx, specimenOr404(ctx.catalog, request.params.id)));

  app.get<IdParams>('/api/specimens/:id/thumbnail', { schema: { params } }, async (request, reply) =>
    sendThumbnail(reply, specimenOr404(ctx.catalog, request.params.id)),
  );

  app.post<IdParams & { Body: StartBody }>('/api/specimens/:id/start', { schema: { params, body: START_BODY, response: START_REPLY } }, async (request) => {
    const record = specimenForStart(ctx, request.params.id);
    if (!record.is_dynamic) throw createHostError('SPC_ERR_STATIC_SPECIMEN_START', record.id);
    return startJob(ctx, { specimen: record }, request.body);
  });
}
