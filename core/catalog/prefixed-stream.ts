/**
 * @module prefixed-stream
 * A readable that yields a small buffer and then everything from another readable, without
 * buffering the latter: used to send an envelope preamble followed by a file streamed from
 * disk. Destroying the result (a client that hangs up) destroys the inner stream, which closes
 * its file.
 */
import { Readable } from 'node:stream';

export function prefixedStream(prefix: Buffer, rest: Readable): Readable {
  async function* parts(): AsyncGenerator<Buffer> {
    yield prefix;
    for await (const chunk of rest) yield chunk as Buffer;
  }
  const out = Readable.from(parts(), { objectMode: false });
  out.once('close', () => {
    if (!rest.destroyed) rest.destroy();
  });
  return out;
}
