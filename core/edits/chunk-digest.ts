/**
 * @module chunk-digest
 * The SHA-256 of a chunk's bytes: what a version's name is made of, chunk by chunk
 * (version-name.ts), and what the volume keeps of each base chunk it copies out.
 */
import { createHash } from 'node:crypto';
import type { LabelArray } from './label-volume.ts';

/** The SHA-256 (hex) of a chunk's bytes. */
export function chunkDigest(chunk: LabelArray): string {
  return createHash('sha256').update(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength)).digest('hex');
}
