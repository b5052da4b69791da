/**
 * @module bounded-body
 * A service's answer read as a stream, never more than a given number of bytes: what a speech
 * service sends past its bound is not taken in. Past the bound the stream is cancelled (the
 * connection is let go) and the caller is told the answer ran over, with the bytes up to the
 * bound, so it can quote them or refuse the answer.
 */

export interface BoundedBody {
  /** At most `limit` bytes of the answer, from its start. */
  bytes: Buffer;
  /** The answer went on past `limit` (and was not read further). */
  over: boolean;
}

/** Reads `body` until it ends or passes `limit` bytes, whichever comes first. */
export async function readBounded(body: ReadableStream<Uint8Array> | null, limit: number): Promise<BoundedBody> {
  if (!body) return { bytes: Buffer.alloc(0), over: false };
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return { bytes: Buffer.concat(chunks, total), over: false };
      chunks.push(value);
      total += value.byteLength;
      if (total > limit) {
        await reader.cancel().catch(() => {});
        return { bytes: Buffer.concat(chunks, total).subarray(0, limit), over: true };
      }
    }
  } finally {
    reader.releaseLock();
  }
}
