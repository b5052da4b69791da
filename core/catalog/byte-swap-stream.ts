/**
 * @module byte-swap-stream
 * A transform that reverses the byte order of fixed-size elements, so a big-endian `.npy`
 * volume can be served in the envelope's little-endian layout while it streams. Chunk
 * boundaries may fall inside an element; the partial element is carried over.
 */
import { Transform, type TransformCallback } from 'node:stream';

export function byteSwapStream(itemSize: number): Transform {
  let carry = Buffer.alloc(0);
  return new Transform({
    transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback) {
      const data = carry.length > 0 ? Buffer.concat([carry, chunk]) : Buffer.from(chunk);
      const whole = data.length - (data.length % itemSize);
      carry = Buffer.from(data.subarray(whole));
      const out = data.subarray(0, whole);
      if (itemSize === 2) out.swap16();
      else if (itemSize === 4) out.swap32();
      else if (itemSize === 8) out.swap64();
      callback(null, out);
    },
    flush(callback: TransformCallback) {
      // A trailing partial element means the file was shorter than its header said.
      callback(carry.length > 0 ? new Error(`stream ended inside a ${itemSize}-byte element`) : null);
    },
  });
}
