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
    let total = 0;
    // Not destroyed when refused: the error handler reads and drops the rest, so the client reads the 413.
    for await (const chunk of stream.iterator({ destroyOnReturn: false }) as AsyncIterable<Buffer>) {
      total += chunk.length;
      if (total > maxBytes) throw createHostError('SPC_ERR_SESSION_TOO_LARGE', String(maxBytes));
      await handle.write(chunk);
    }
    await handle.close();
    return file;
  } catch (error) {
    await handle.close().catch(() => {});
    await rm(file, { force: true });
    if ((error as NodeJS.ErrnoException).code === 'ERR_STREAM_PREMATURE_CLOSE') throw new Error('the client went away before the session file ended');
    throw error;
  }
}
