/**
 * @module routes-uploads
 * POST /api/uploads?filename=NAME: a file as the request body (`application/octet-stream`,
 * the one body that is not JSON), parsed by its extension and kept as an input for functions
 * (`{"upload": id}`). What can be refused without reading the body is refused first (uploads
 * off, an unknown extension, a Content-Length past the limit); a body that passes the limit
 * while streaming, or does not parse, is refused and nothing is stored.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Readable } from 'node:stream';
import { createHostError } from '../errors.ts';
import { FormatError } from '../formats/format-error.ts';
import { PARSED_EXTENSIONS, parsedExtension, parseFile } from '../formats/parse-file.ts';
import type { HostContext } from '../host-context.ts';
import { readUploadBody, type UploadBody } from '../uploads/read-upload-body.ts';

type UploadRequest = FastifyRequest<{ Querystring: { filename?: unknown } }>;

/** The upload's file name and parsed extension, or the 400/415 saying what is wrong. */
function fileNameOf(request: UploadRequest): { name: string; ext: string } {
  const name = request.query.filename;
  if (typeof name !== 'string' || name.trim() === '') throw createHostError('SPC_ERR_BAD_REQUEST', 'filename (the uploaded file\'s name, e.g. ?filename=scan.stl) is required');
  const ext = parsedExtension(name);
  if (!ext) throw createHostError('SPC_ERR_UPLOAD_FORMAT', name, PARSED_EXTENSIONS.join(', '));
  return { name, ext };
}

export async function uploadRoutes(app: FastifyInstance, opts: { ctx: HostContext }): Promise<void> {
  const { ctx } = opts;
  const maxBytes = ctx.options.maxUploadBytes;

  // This scope reads raw bodies; the rest of the host keeps its JSON-only parsers.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/octet-stream', (_request, payload, done) => done(null, payload));
  app.addContentTypeParser('*', (request, _payload, done) => {
    done(createHostError('SPC_ERR_UPLOAD_FORMAT', `a body of type ${request.headers['content-type'] ?? '(none)'}`, 'application/octet-stream bodies of .npy, .stl, .obj, .glb, .ply, .png'));
  });

  app.post('/api/uploads', {
    // Runs before the body is read: refusals here cost the client no upload.
    onRequest: async (request: UploadRequest, reply) => {
      if (!ctx.uploads) throw createHostError('SPC_ERR_UPLOADS_OFF');
      fileNameOf(request);
      const declared = Number(request.headers['content-length']);
      if (Number.isFinite(declared) && declared > maxBytes) {
        reply.header('connection', 'close');
        throw createHostError('SPC_ERR_UPLOAD_TOO_LARGE', String(maxBytes));
      }
    },
    handler: async (request: UploadRequest, reply) => {
      const uploads = ctx.uploads!;
      const { name, ext } = fileNameOf(request);
      let body: UploadBody;
      try {
        const declared = request.headers['content-length'] === undefined ? undefined : Number(request.headers['content-length']);
        body = request.body ? await readUploadBody(request.body as Readable, maxBytes, ext, declared) : { bytes: Buffer.alloc(0), id: '' };
      } catch (error) {
        reply.header('connection', 'close');
        throw error;
      }
      const { bytes, id } = body;
      if (bytes.length === 0) throw createHostError('SPC_ERR_UPLOAD_INVALID', name, 'the file is empty');
      const known = await uploads.refresh(id, bytes.length);
      if (known) return known;
      let result;
      try {
        result = await parseFile(bytes, name);
      } catch (error) {
        if (error instanceof FormatError) throw createHostError('SPC_ERR_UPLOAD_INVALID', name, error.message);
        throw error;
      }
      const stored = await uploads.put(id, result, bytes.length);
      if (!stored) throw createHostError('SPC_ERR_UPLOAD_TOO_LARGE', String(ctx.options.cacheMaxBytes));
      return stored;
    },
  });
}
