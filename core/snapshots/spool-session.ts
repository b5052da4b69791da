/**
 * @module spool-session
 * A session file's bytes from a request body written to a file as they arrive (a folder of the
 * host's own: the data folder's `tmp/`, else the system's temporary folder), so the host holds
 * none of it in memory however large it is or how many arrive at once. Each chunk is written
 * before the next is read (the client is slowed to the disk, never the other way). A body that
 * passes the limit is refused (413) as soon as it does, its file removed; the rest of it is not
 * read here (the error handler reads and drops it, so the client reads the 413). A client gone
 * before its end leaves nothing either.
 */
import { open, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { createHostError } from '../errors.ts';

let serial = 0;

/**
 * Writes `stream` into a new file of `dir`, at most `maxBytes`; returns the file (the caller
 * removes it). @throws SPC_ERR_SESSION_TOO_LARGE past the limit, with nothing left behind.
 */
export async function spoolSession(stream: Readable, dir: string, maxBytes: number): Promise<string> {
  const file = path.join(dir, `session-${process.pid}-${Date.now()}-${++serial}.vitrine`);
  const handle = await open(file, 'wx');
  try {
    await new Promise<void>((resolve, reject) => {
      let total = 0;
      let writing = Promise.resolve();
      const stop = (error?: unknown) => {
        stream.off('data', onData);
        stream.off('end', onEnd);
        stream.off('error', stop);
        stream.off('close', onClose);
        if (error !== undefined) reject(error);
      };
      const onData = (chunk: Buffer) => {
        total += chunk.length;
        if (total > maxBytes) return stop(createHostError('SPC_ERR_SESSION_TOO_LARGE', String(maxBytes)));
        stream.pause();
        writing = writing.then(() => handle.write(chunk).then(() => void stream.resume())).catch((error: unknown) => stop(error));
      };
      let ended = false;
      const onEnd = () => {
        ended = true;
        void writing.then(() => (stop(), resolve()));
      };
      const onClose = () => {
        if (!ended) stop(new Error('the client went away before the session file ended'));
      };
      stream.on('data', onData);
      stream.once('end', onEnd);
      stream.once('error', stop);
      stream.once('close', onClose);
    });
    await handle.close();
    return file;
  } catch (error) {
    await handle.close().catch(() => {});
    await rm(file, { force: true });
    throw error;
  }
}
