/**
 * @module routes-uploads
 * POST /api/uploads?filename=NAME: a file as the request body (`application/octet-stream`,
 * the one body that is not JSON), or as the file of a form (`multipart/form-data`, named by
 * the form when `filename` is not given: upload-form.ts), parsed by its extension and kept as an input for functions
 * (`{"upload": id}`). What can be refused without reading the body is refused first (uploads
 * off and a Content-Length past the limit before anything else; then a missing file name, by
 * the route's query schema, and an unknown extension); a body that passes the limit while
 * streaming, would decode past the limit (checked from its header before decoding, on the
 * encode thread with the parse itself), or does not parse, is refused and nothing is stored. The body is a stream, which
 * fastify cannot validate, so the route declares only what it `consumes` (ops/openapi.ts shows
 * such a body as binary).
 */
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Readable } from 'node:stream';
import { createHostError } from '../../errors.ts';
import { PARSED_EXTENSIONS, parsedExtension } from '../../formats/parse-file.ts';
import type { HostContext } from '../../host-context.ts';
import { readUploadBody } from '../../uploads/read-upload-body.ts';
import { FORMATS_BY_TYPE } from '../../delivery/delivery-options.ts';
import { INPUT_ERRORS, queryOf, VOLUME_FIELD_QUERY } from '../route-inputs.ts';
import { parseFileBody } from '../../published/file-body.ts';
import { AxesFieldError } from '../../results/volume-axes.ts';
import { readVolumeFields, VOLUME_FIELD_NAMES, type VolumeFieldsInput } from '../../results/volume-fields-input.ts';
import { FORM_OVERHEAD_BYTES, formLimits, formUpload } from './upload-form.ts';

type UploadRequest = FastifyRequest<{ Querystring: { filename?: string } & Record<string, string | undefined> }>;

/** The upload's name and byte stream, from a raw body or a form. */
async function uploadOf(request: UploadRequest): Promise<{ name: string; stream: Readable | null; declared?: number }> {
  const queryName = request.query.filename;
  if (request.isMultipart()) return formUpload(request, queryName);
  if (queryName === undefined) throw INPUT_ERRORS.querystring.filename!(undefined, 'required');
  const declared = request.headers['content-length'] === undefined ? undefined : Number(request.headers['content-length']);
  return { name: queryName, stream: (request.body as Readable | undefined) ?? null, ...(declared === undefined ? {} : { declared }) };
}

/** The query's volume fields (a `.npy` with time or channels), or the 400 naming a malformed one. */
function volumeFieldsOf(query: Record<string, unknown>, name: string): VolumeFieldsInput {
  try {
    return readVolumeFields(query);
  } catch (error) {
    if (error instanceof AxesFieldError) throw createHostError('SPC_ERR_UPLOAD_INVALID', name, error.message);
    throw error;
  }
}

/** The volume fields as the upload id takes them: the same bytes said to be other axes are another upload. */
function describedKey(described: VolumeFieldsInput): string {
  return Object.keys(described).length === 0 ? '' : JSON.stringify(VOLUME_FIELD_NAMES.map((field) => described[field] ?? null));
}

/** The route's declaration: what /openapi.json shows and what fastify checks of the query. */
function uploadSchema(uploadsOn: boolean): Record<string, unknown> {
  return {
    // With --uploads off the route only answers 404, and the document leaves it out.
    hide: !uploadsOn,
    summary: 'Upload a file to use as an input ({"upload": upload_id})',
    description:
      'The file is the request body (application/octet-stream), or the file part of a form (multipart/form-data; its file name is used when filename is ' +
      'not given). ' +
      `Its extension picks the parser: ${PARSED_EXTENSIONS.join(', ')}. ` +
      'The same bytes give the same id. 413 past --max-upload-bytes (as sent, or once decoded), 415 for another extension, 400 for a file that does not ' +
      'parse, 404 with --uploads off.',
    consumes: ['application/octet-stream', 'multipart/form-data'],
    querystring: queryOf({
      filename: { type: 'string', pattern: '\\S', description: "The file's name (its extension decides how it is read); required for a raw body" },
      ...VOLUME_FIELD_QUERY,
    }),
    response: {
      200: {
        description: 'Stored',
        type: 'object',
        required: ['upload_id', 'type', 'bytes', 'expires_in'],
        properties: {
          upload_id: { type: 'string' },
          type: { enum: Object.keys(FORMATS_BY_TYPE) },
          bytes: { type: 'integer' },
          expires_in: { type: 'integer', description: 'Seconds until it is dropped' },
        },
      },
    },
  };
}

/** What the upload routes read from their host. */
export type UploadDeps = Pick<HostContext, 'uploads' | 'files'> & { options: Pick<HostContext['options'], 'maxUploadBytes' | 'cacheMaxBytes'> };

export async function uploadRoutes(app: FastifyInstance, { ctx }: { ctx: UploadDeps }): Promise<void> {
  const maxBytes = ctx.options.maxUploadBytes;

  // This scope reads raw bodies; the rest of the host keeps its JSON-only parsers.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/octet-stream', (_request, payload, done) => done(null, payload));
  await app.register(multipart, { limits: formLimits(maxBytes) });
  app.addContentTypeParser('*', (request, _payload, done) => {
    const known = `application/octet-stream bodies or multipart/form-data files of ${PARSED_EXTENSIONS.join(', ')}`;
    done(createHostError('SPC_ERR_UPLOAD_FORMAT', `a body of type ${request.headers['content-type'] ?? '(none)'}`, known));
  });

  app.post('/api/uploads', {
    schema: uploadSchema(ctx.uploads !== null),
    // Runs before the body is read: refusals here cost the client no upload.
    onRequest: async (request) => {
      if (!ctx.uploads) throw createHostError('SPC_ERR_UPLOADS_OFF');
      // A form is a little larger than its file.
      const overhead = request.headers['content-type']?.startsWith('multipart/form-data') ? FORM_OVERHEAD_BYTES : 0;
      const declared = Number(request.headers['content-length']);
      if (Number.isFinite(declared) && declared > maxBytes + overhead) throw createHostError('SPC_ERR_UPLOAD_TOO_LARGE', String(maxBytes));
    },
    handler: async (request: UploadRequest) => {
      const uploads = ctx.uploads!;
      const { name, stream, declared } = await uploadOf(request);
      // Still before the file is read (it streams in below): an extension no parser reads is a 415.
      const ext = parsedExtension(name);
      if (!ext) throw createHostError('SPC_ERR_UPLOAD_FORMAT', name, PARSED_EXTENSIONS.join(', '));
      const described = volumeFieldsOf(request.query, name);
      const { bytes, id } = stream
        ? await readUploadBody(stream, maxBytes, ext, declared, describedKey(described))
        : { bytes: Buffer.alloc(0), id: '' };
      const known = bytes.length > 0 ? await uploads.refresh(id, bytes.length) : null;
      if (known) return known;
      // Off the event loop, and refused before decoding when it would decode past the limit.
      const result = await parseFileBody(ctx.files.parse, bytes, name, maxBytes, described);
      const stored = await uploads.put(id, result, bytes.length);
      if (!stored) throw createHostError('SPC_ERR_UPLOAD_TOO_LARGE', String(ctx.options.cacheMaxBytes));
      return stored;
    },
  });
}
