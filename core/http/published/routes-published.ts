/**
 * @module routes-published
 * Publishing: `PUT /api/specimens/{id}` makes a static specimen of a file sent as the body
 * (`application/octet-stream`, `?filename=NAME`, read as uploads are) or of an upload
 * (`{"upload": id}` in a JSON body), with `display_name`, `description` and `tags` from the
 * query or the JSON body: 201 when new, 200 when it replaced a published one, 409 when the id
 * is a specimen from anywhere else. A JSON body `{"remote": "NAME/path"}` publishes an OME-Zarr
 * image of one of the host's remotes without copying it (remote/remote-data.ts).
 * `DELETE /api/specimens/{id}` removes one (204). Both are writes: the cross-site guard applies, and so does the admin token when the host has one.
 */
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { createHostError } from '../../errors.ts';
import { PARSED_EXTENSIONS, parsedExtension } from '../../formats/parse-file.ts';
import type { HostContext } from '../../host-context.ts';
import { readUploadBody } from '../../uploads/read-upload-body.ts';
import type { PublishedSpecimens } from '../../published/published-specimens.ts';
import { readPublishFields } from '../../published/publish-input.ts';
import { checkPublishable, checkSpecimenId, fileFromUpload, publishFile, type PublishDeps, type PublishedFile } from '../../published/publish-file.ts';
import { parseFileBody } from '../../published/file-body.ts';
import { idParams, queryOf, VOLUME_FIELD_QUERY } from '../route-inputs.ts';
import type { RoomUse } from '../../people/room-access.ts';
import { isRemoteBody } from '../../remote/remote-publish-input.ts';
import { publishRemote, unpublishRemote } from '../../published/remote-record.ts';

type PublishRequest = FastifyRequest<{ Params: { id: string }; Querystring: Record<string, string | undefined> }>;

const TEXT = { type: 'string' };
const PUT_SCHEMA = {
  summary: 'Publish a file (or an upload, or a remote image read in place) as a static specimen',
  description:
    'Or JSON {"remote": "NAME/path/to/image.ome.zarr"} with optional level, channel, t and role=labels: an OME-Zarr image on a --remote of the host, ' +
    'read in place (its metadata only now), answered with its shape, dtype, levels, spacing and origin. ' +
    'Body: the file (application/octet-stream, with ?filename=NAME; ' +
    `${PARSED_EXTENSIONS.join(', ')}) or JSON {"upload": upload_id}. display_name, description, tags (comma-separated in the query, a list in JSON), ` +
    'spacing and origin (a .npy volume) are optional, and so are a .npy volume\'s unit, axes (tczyx, czyx, tzyx), channels, time_step, time_unit ' +
    'and vector; role=labels marks a uint8, uint16 or uint32 volume as a segmentation, with optional label_names and label_colors (objects ' +
    'keyed by label id: JSON text in the query). room=R publishes it for room R\'s layers: the catalog lists it only with ?room=R. ' +
    'source names what made it (segment.py); a layer showing it carries provenance {"published": {specimen, sha256, client, user, published_at, ' +
    'source}} (client: the request\'s User-Agent; user: who the host took the request for). ' +
    '201 when new, 200 when replaced, 409 when the id is a specimen that is not published.',
  consumes: ['application/octet-stream', 'application/json'],
  params: idParams('id'),
  querystring: queryOf({
    filename: TEXT,
    display_name: TEXT,
    description: TEXT,
    tags: TEXT,
    spacing: TEXT,
    origin: TEXT,
    role: TEXT,
    label_names: TEXT,
    label_colors: TEXT,
    source: { type: 'string', description: 'What made the file (a script or notebook: segment.py), kept in its provenance' },
    room: { type: 'string', description: "The room whose layer this array is for: the catalog lists it only with ?room=<room>" },
    ...VOLUME_FIELD_QUERY,
  }),
};

const bad = (why: string) => createHostError('SPC_ERR_PUBLISH_INVALID', why);

function fileNameOf(raw: string | undefined): string {
  const name = raw?.trim();
  if (!name) throw bad('a file body needs ?filename=NAME (its extension says how to read it)');
  const base = path.basename(name.replaceAll('\\', '/'));
  if (!parsedExtension(base)) throw createHostError('SPC_ERR_UPLOAD_FORMAT', base, PARSED_EXTENSIONS.join(', '));
  if (base.length > 200 || base.startsWith('.')) throw bad(`'${base}' is not a usable file name`);
  return base;
}

/** What the publishing routes read from their host. */
export type PublishedRouteDeps = PublishDeps &
  Pick<HostContext, 'files' | 'remotes'> & { options: Pick<HostContext['options'], 'maxUploadBytes' | 'cacheMaxBytes'> };

async function fileFromBody(ctx: PublishedRouteDeps, request: PublishRequest): Promise<PublishedFile> {
  const fileName = fileNameOf(request.query.filename);
  // Before the body is read: a malformed field costs the client no upload.
  const fields = readPublishFields(request.query);
  const declared = request.headers['content-length'] === undefined ? undefined : Number(request.headers['content-length']);
  const { bytes } = await readUploadBody(request.body as Readable, ctx.options.maxUploadBytes, parsedExtension(fileName)!, declared);
  // As an upload is: off the event loop, refused before decoding past the limit.
  const geometry = { ...fields.described, spacing: fields.spacing ?? null, origin: fields.origin ?? null };
  const result = await parseFileBody(ctx.files.parse, bytes, fileName, ctx.options.maxUploadBytes, geometry);
  return { bytes: Buffer.from(bytes), fileName, result, fields, client: clientOf(request) };
}

/** The client a request came from, as its User-Agent names it (`vitrine-python/0.1.0`), bounded. */
function clientOf(request: FastifyRequest): string | null {
  const agent = request.headers['user-agent']?.trim();
  return agent ? agent.slice(0, 200) : null;
}

function isFileBody(request: FastifyRequest): boolean {
  const type = request.headers['content-type'];
  return typeof type === 'string' && type.split(';')[0]!.trim().toLowerCase() === 'application/octet-stream';
}

/** Publishing for a room (a JSON body's `room`, else the query's) writes to it; checked before the file is read. */
function publishedFor(request: FastifyRequest): RoomUse[] {
  const body = request.body as { room?: unknown } | null | undefined;
  const room = (isFileBody(request) ? undefined : body?.room) ?? (request.query as { room?: unknown } | undefined)?.room;
  return typeof room === 'string' && room !== '' ? [{ room, want: 'write' }] : [];
}

export async function publishedRoutes(app: FastifyInstance, { ctx, published }: { ctx: PublishedRouteDeps; published: PublishedSpecimens }): Promise<void> {
  const maxBytes = ctx.options.maxUploadBytes;
  // This scope also reads raw file bodies; JSON bodies are parsed as everywhere else.
  app.addContentTypeParser('application/octet-stream', (_request, payload, done) => done(null, payload));

  app.put('/api/specimens/:id', {
    schema: PUT_SCHEMA,
    config: { roomAccess: publishedFor },
    // Before the body is read: a refusal here costs the client no upload.
    onRequest: async (request) => {
      const declared = Number(request.headers['content-length']);
      if (Number.isFinite(declared) && declared > maxBytes) throw createHostError('SPC_ERR_UPLOAD_TOO_LARGE', String(maxBytes));
    },
    handler: async (request: PublishRequest, reply: FastifyReply) => {
      const { id } = request.params;
      checkSpecimenId(id);
      await published.refresh();
      checkPublishable(ctx, id);
      // A remote image is published without copying it: its metadata is read, nothing else.
      if (!isFileBody(request) && isRemoteBody(request.body)) {
        // Published for a room as an array is: the body's `room`, else the query's.
        const room = (request.query as { room?: unknown } | undefined)?.room;
        const body = request.body.room === undefined && typeof room === 'string' && room !== '' ? { ...request.body, room } : request.body;
        const { replaced, info } = await publishRemote(ctx, id, body);
        reply.code(replaced ? 200 : 201);
        return info;
      }
      const upload = isFileBody(request) ? null : await fileFromUpload(ctx, id, request.body, request.query);
      const file = upload ? { ...upload, client: clientOf(request) } : await fileFromBody(ctx, request);
      const { replaced, metadata } = await publishFile(ctx, id, file);
      reply.code(replaced ? 200 : 201);
      return metadata;
    },
  });

  app.delete<{ Params: { id: string } }>(
    '/api/specimens/:id',
    {
      schema: {
        summary: 'Remove a published specimen',
        description: '204 when removed; 404 when no published specimen has this id; 409 for a specimen that is not published.',
        params: idParams('id'),
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      await published.refresh();
      checkPublishable(ctx, id);
      if (await unpublishRemote(ctx, id)) return reply.code(204).send();
      if (!(await published.remove(id))) throw createHostError('SPC_ERR_PUBLISHED_NOT_FOUND', id);
      return reply.code(204).send();
    },
  );
}
