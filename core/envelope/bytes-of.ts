/** @module bytes-of Buffer views onto typed arrays (Node only). */

/** A typed array's bytes as a Buffer view (no copy). */
export function bytesOf(array: ArrayBufferView): Buffer {
  return Buffer.from(array.buffer, array.byteOffset, array.byteLength);
}
