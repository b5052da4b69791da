/**
 * @module install-compression
 * Small JSON responses (and the viewer's pages) are compressed on the fly when the client's
 * Accept-Encoding allows it (@fastify/compress: br, gzip, deflate). Results are not: /data,
 * /invoke and /jobs/{id}/result opt out and compress through core/delivery, once per variant
 * on a worker thread and with Content-Length (the VR client shows its progress bar from it).
 * Event streams are never compressed (they must flush each event).
 */
import { constants } from 'node:zlib';
import compress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';

export async function installCompression(app: FastifyInstance): Promise<void> {
  await app.register(compress, {
    globalCompression: true,
    // Request bodies are small JSON; inflating them would only widen what a body can cost.
    globalDecompression: false,
    threshold: 1024,
    encodings: ['br', 'gzip', 'deflate'],
    // JSON and the viewer's own pages and scripts; never data files (text ones included), whose
    // Content-Length clients rely on.
    customTypes: /^(?:application\/(?:[\w.+-]+\+)?json|text\/(?:html|css|javascript)|application\/javascript)/,
    // Brotli's default quality 11 is far too slow for large results served live.
    brotliOptions: { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } },
  });
}
