/**
 * @module routes-annotations
 * A room's annotations. `GET /api/rooms/{room_id}/annotations` answers `{version, annotations}`
 * (`?format=csv`: one row per point), each mark naming the units of its frame; `POST` adds one annotation (201 with it), a list or
 * `{"annotations": [...]}` (201 with `{version, annotations}` of those added), or imports
 * `text/csv` in the export's shape; one annotation's routes are routes-annotation-items.ts.
 * Writes pass the host's guards like every other write (cross-site and foreign-Host 403);
 * events go out from the store (annotation-store.ts). A large import (JSON or CSV) is read on
 * the encode thread, not the event loop, and refused at the first annotation past the cap.
 */
import type { Readable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { checkDrafts } from '../../annotations/check-annotation.ts';
import { requestIdentity } from '../../people/request-user.ts';
import { renderJsonParts } from '../../annotations/chunked-render.ts';
import { sharedAnswer } from '../../cache/shared-answer.ts';
import { draftsOf, INLINE_IMPORT_CHARS, isSingle, parseImport, type ReadImport } from '../../annotations/parse-import.ts';
import { parseJson } from '../json-body.ts';
import { createHostError, isHostError } from '../../errors.ts';
import { readSharedBody } from '../../memory/shared-body.ts';
import { sendShared } from '../send-shared.ts';
import { roomOf } from '../request-input.ts';
import { queryOf, ROOM_PARAMS, type RoomParams } from '../route-inputs.ts';
import { annotationItemRoutes, FIELDS_TEXT, sendOne, type AnnotationRouteDeps } from './routes-annotation-items.ts';

/** Largest body of a POST (JSON or CSV): about 100,000 points of CSV with room to spare. */
export const ANNOTATION_BODY_LIMIT = 16 * 1024 * 1024;

/** A large import's text, kept as it arrived for the encode thread to read. */
class ImportText {
  constructor(readonly text: string) {}
}

function isCsv(request: FastifyRequest): boolean {
  const type = request.headers['content-type'];
  return typeof type === 'string' && /^(text|application)\/csv\s*(;|$)/i.test(type.trim());
}

/** A room id as a file name. */
const fileNameOf = (roomId: string) => `${roomId.replace(/[^A-Za-z0-9_.-]/g, '_').slice(0, 64)}-annotations.csv`;

/** The drafts with their author the request's user when it is known (what a body says is then ignored). */
function authoredBy<T extends { author?: string }>(request: FastifyRequest, drafts: T[]): T[] {
  const who = requestIdentity(request);
  return who ? drafts.map((draft) => ({ ...draft, author: who.name })) : drafts;
}

/**
 * A CSV body as its bytes in shared memory, each chunk copied into place as it arrives: read
 * whole first, a 16 MiB body was copied in one turn of the event loop (about 0.1 s), then
 * copied again to reach the encode thread, which now reads the same memory.
 */
async function csvBytes(request: FastifyRequest, payload: NodeJS.ReadableStream): Promise<Buffer> {
  const tooLarge = () => createHostError('SPC_ERR_BODY_TOO_LARGE', String(ANNOTATION_BODY_LIMIT));
  const length = request.headers['content-length'];
  const declaredBytes = length === undefined ? undefined : Number(length);
  if (declaredBytes !== undefined && declaredBytes > ANNOTATION_BODY_LIMIT) throw tooLarge();
  try {
    return await readSharedBody(payload as Readable, { maxBytes: ANNOTATION_BODY_LIMIT, declaredBytes, tooLarge });
  } catch (error) {
    if (isHostError(error)) throw error;
    throw createHostError('SPC_ERR_BAD_REQUEST', `the CSV body ended before it was whole (${(error as Error).message})`);
  }
}

/** CSV kept as bytes and a large JSON list kept as text: the encode thread reads them, not the event loop. */
function installImportParsers(app: FastifyInstance): void {
  app.addContentTypeParser(['text/csv', 'application/csv'], csvBytes);
  // A large list to import is not parsed here: the encode thread reads it (the only POST here is the import).
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (request.method === 'POST' && (body as string).length > INLINE_IMPORT_CHARS) return done(null, new ImportText(body as string));
    parseJson(request, body as string, done);
  });
}

/** The drafts a POST carries, read off the event loop when large. */
async function draftsIn(ctx: AnnotationRouteDeps, request: FastifyRequest): Promise<ReadImport> {
  const body = request.body;
  const max = ctx.options.maxAnnotations;
  if (isCsv(request)) {
    const bytes = Buffer.isBuffer(body) ? body : Buffer.from(String(body));
    if (bytes.byteLength <= INLINE_IMPORT_CHARS) return draftsOf(parseImport({ op: 'parseImport', kind: 'csv', text: bytes.toString('utf8'), max }));
    return ctx.files.parseAnnotations('csv', bytes, max);
  }
  if (body instanceof ImportText) return ctx.files.parseAnnotations('json', body.text, max);
  return { drafts: checkDrafts(body, max), single: isSingle(body) };
}

export async function annotationRoutes(app: FastifyInstance, opts: { ctx: AnnotationRouteDeps }): Promise<void> {
  installImportParsers(app);
  annotationListRoutes(app, opts.ctx);
  annotationItemRoutes(app, opts.ctx);
}

/** A room's list: `GET` (JSON, CSV, or the changes since a version) and `POST` (one, a list, or CSV). */
function annotationListRoutes(app: FastifyInstance, ctx: AnnotationRouteDeps): void {
  app.get<RoomParams & { Querystring: { format?: string; since_version?: string } }>(
    '/api/rooms/:room_id/annotations',
    {
      schema: {
        summary: "A room's annotations: {version, annotations} (or CSV, one row per point)",
        description:
          '`version` moves by one for every annotation added, changed or removed (the `annotation` events of the room stream carry it). ' +
          'Each annotation has id, kind, points, its own version, created and updated (ms since the epoch), its optional fields and what the host ' +
          'measured: length (line, polyline) or volume (box, ellipsoid), in the physical units of its points. ' +
          'Each names those units when its frame states one (its layer’s result’s, else the active layer’s): `unit` (of its points), ' +
          '`length_unit`, `volume_unit` (the unit cubed, `um³`); an import ignores them. ' +
          '`?format=csv`: columns id, kind, label, layer, point, x, y, z, length, volume, color, author, unit, length_unit, volume_unit ' +
          'and one per property. ' +
          '`?since_version=V` (JSON): `{version, since_version, changes}`, the changes after V as the `annotation` events carry them ' +
          '(`{op, annotation, version}`, oldest first), when the host still knows them; else the whole list as without it.',
        params: ROOM_PARAMS,
        querystring: queryOf({
          format: { enum: ['json', 'csv'], description: 'json (default) or csv' },
          since_version: { type: 'string', pattern: '^[0-9]{1,15}$', description: 'The room version the reader has: answer only the changes after it' },
        }),
      },
    },
    async (request, reply) => {
      const roomId = roomOf(ctx, request.params.room_id);
      if (request.query.format === 'csv') {
        reply.type('text/csv; charset=utf-8').header('content-disposition', `attachment; filename="${fileNameOf(roomId)}"`);
        return sendShared(reply, await ctx.forms.csv(roomId, await ctx.units.of(roomId, request.ip)));
      }
      const since = request.query.since_version === undefined ? undefined : Number(request.query.since_version);
      const changes = since === undefined ? null : await ctx.annotations.changesSince?.(roomId, since);
      if (changes) {
        const version = changes.at(-1)?.version ?? since;
        return reply.header('cache-control', 'no-cache').send({ version, since_version: since, changes });
      }
      return sendShared(reply.type('application/json; charset=utf-8'), await ctx.forms.json(roomId, await ctx.units.of(roomId, request.ip)));
    },
  );

  app.post<RoomParams & { Body: unknown }>(
    '/api/rooms/:room_id/annotations',
    {
      bodyLimit: ANNOTATION_BODY_LIMIT,
      schema: {
        summary: 'Add annotations to a room (one, a list, or CSV)',
        description:
          `One annotation: ${FIELDS_TEXT}; answers 201 with it. A list of them (or {"annotations": [...]}): 201 with {version, annotations} of those ` +
          `added, all or none. ` +
          'text/csv in the export’s shape (x, y, z required; rows of one id make one annotation): 201 as for a list. The host makes ids; what it sets ' +
          'itself is ignored when sent. ' +
          'A bad field: 400 naming it (annotations[3].points[1][2] must be a finite number); ' +
          `a room past ${ctx.options.maxAnnotations} annotations: 409, nothing added.`,
        consumes: ['application/json', 'text/csv'],
        params: ROOM_PARAMS,
      },
    },
    async (request, reply) => {
      const roomId = roomOf(ctx, request.params.room_id);
      const { drafts, single } = await draftsIn(ctx, request);
      const added = await ctx.annotations.add(roomId, authoredBy(request, drafts));
      reply.code(201);
      // A large import's answer is rendered a batch at a time, as the room's list is.
      if (!single) return sendShared(reply.type('application/json; charset=utf-8'), await sharedAnswer(await renderJsonParts(added, false), false));
      const [annotation] = added.annotations;
      reply.header('location', `/api/rooms/${encodeURIComponent(roomId)}/annotations/${annotation!.id}`);
      return sendOne(reply, annotation!);
    },
  );
}
