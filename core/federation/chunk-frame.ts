/**
 * @module chunk-frame
 * Binary frames of the federation channel: a 4-byte little-endian id (the request the bytes
 * answer, in the receiver's id space) followed by up to CHUNK_BYTES of payload.
 */

export const CHUNK_HEADER_BYTES = 4;

/** One frame: the id, then `payload` (copied once, behind the 4-byte header). */
export function encodeChunkFrame(id: number, payload: Uint8Array): Buffer {
  const frame = Buffer.allocUnsafe(CHUNK_HEADER_BYTES + payload.byteLength);
  frame.writeUInt32LE(id, 0);
  frame.set(payload, CHUNK_HEADER_BYTES);
  return frame;
}

/** The id and a view of the payload of a received frame; null when it is too short. */
export function decodeChunkFrame(frame: Buffer): { id: number; payload: Buffer } | null {
  if (frame.length < CHUNK_HEADER_BYTES) return null;
  return { id: frame.readUInt32LE(0), payload: frame.subarray(CHUNK_HEADER_BYTES) };
}
