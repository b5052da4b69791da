/**
 * @module shared-body
 * A body (a request's, or a remote's answer) read from its stream into shared memory, refused
 * as soon as it passes its limit rather than after: a peer that streams gigabytes is stopped at
 * the limit.
 *
 * Each chunk is copied once straight into its place as it arrives when the request says its
 * length, so no turn of the event loop copies the whole body (a 16 MiB copy into fresh memory
 * is about 0.1 s of this machine's thread, most of it the kernel handing out pages), and at
 * most about a MiB is copied between two turns. The bytes then cross into worker threads by
 * reference, with no second copy. Memory is only committed as the bytes arrive, so a
 * Content-Length that overstates the body costs nothing. A body without a length (chunked) is
 * gathered as it comes and copied into place a few MiB per turn.
 */
import type { Readable } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { joinInTurns } from './turn-batches.ts';

/**
 * Bytes copied into place before the reader gives the event loop a turn: a socket read while
 * the loop was held hands over several MiB at once, and copying it all into fresh memory in
 * one turn held the loop for tens of milliseconds; meanwhile the stream's own buffer fills and
 * the socket waits, as with any slow reader.
 */
const COPY_PER_TURN = 1024 * 1024;

export interface SharedBodyLimits {
  maxBytes: number;
  /** The request's Content-Length when it has one (the caller refused it already when past `maxBytes`). */
  declaredBytes?: number;
  /** The error a body past `maxBytes` is refused with. */
  tooLarge: () => Error;
  /** Sees each chunk as it arrives (an upload's hash). */
  seen?: (chunk: Buffer) => void;
}

function sharedBytes(length: number): Buffer {
  return Buffer.from(new SharedArrayBuffer(length), 0, length);
}

/** Reads `stream` whole into a SharedArrayBuffer of its own; chunks past a declared length are taken too. */
export async function readSharedBody(stream: Readable, limits: SharedBodyLimits): Promise<Buffer> {
  const { maxBytes, declaredBytes: declared, tooLarge, seen } = limits;
  const known = declared !== undefined && Number.isSafeInteger(declared) && declared >= 0 && declared <= maxBytes;
  let target = known ? sharedBytes(declared) : null;
  const chunks: Buffer[] = [];
  let total = 0;
  let sinceTurn = 0;
  // Not destroyed when refused: the host reads and drops the rest, so the client reads the refusal.
  const arriving = typeof stream.iterator === 'function' ? stream.iterator({ destroyOnReturn: false }) : (stream as AsyncIterable<Buffer>);
  for await (const chunk of arriving as AsyncIterable<Buffer>) {
    const end = total + chunk.length;
    if (end > maxBytes) throw tooLarge();
    seen?.(chunk);
    if (target && end <= target.length) {
      target.set(chunk, total);
    } else {
      // More bytes than the request said: gather them as they come instead.
      if (target) chunks.push(target.subarray(0, total));
      target = null;
      chunks.push(chunk);
    }
    total = end;
    if ((sinceTurn += chunk.length) >= COPY_PER_TURN) {
      sinceTurn = 0;
      await nextTurn();
    }
  }
  if (target) return total === target.length ? target : target.subarray(0, total);
  // No length given (a chunked body): one copy into shared memory, a few MiB a turn.
  return joinInTurns(chunks, sharedBytes(total));
}
