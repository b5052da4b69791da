/**
 * @module upload-openapi
 * The OpenAPI description of `POST /api/uploads`: its body is the file itself, which the
 * collected document (JSON bodies only) cannot say, so openapi.ts takes this one by hand.
 */
import { PARSED_EXTENSIONS } from '../formats/parse-file.ts';

export const UPLOAD_PATHS: Record<string, Record<string, Record<string, unknown>>> = {
  '/api/uploads': {
    post: {
      summary: 'Upload a file to use as an input ({"upload": upload_id})',
      description:
        `The file is the request body (application/octet-stream). Its extension picks the parser: ${PARSED_EXTENSIONS.join(', ')}. ` +
        'The same bytes give the same id. 413 past --max-upload-bytes, 415 for another extension, 400 for a file that does not parse, 404 with --uploads off.',
      parameters: [{ name: 'filename', in: 'query', required: true, schema: { type: 'string' }, description: "The file's name (its extension decides how it is read)" }],
      requestBody: { required: true, content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } } },
      responses: {
        '200': {
          description: 'Stored',
          content: {
            'application/json': {
              schema: {
                type: 'object',
                required: ['upload_id', 'type', 'bytes', 'expires_in'],
                properties: {
                  upload_id: { type: 'string' },
                  type: { enum: ['mesh', 'volume', 'point_cloud', 'image'] },
                  bytes: { type: 'integer' },
                  expires_in: { type: 'integer', description: 'Seconds until it is dropped' },
                },
              },
            },
          },
        },
      },
    },
  },
};
