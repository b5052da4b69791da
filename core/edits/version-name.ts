/**
 * @module version-name
 * The id of an edited labels layer's version, worked out from what differs from its base and
 * not by hashing the whole volume: the base result's id, the version's tables when they are not
 * the base's, and the SHA-256 of each chunk whose voxels are not the base's, by chunk. The same
 * voxels and tables reached from the same base have the same id whatever edits led there; a
 * chunk with other voxels gives another; and a version in which no chunk and no table differs
 * from the base is the base, under the base's own id (so undoing every edit names the base).
 *
 * Whether a chunk differs from the base is found by comparing its voxels with the base's (which
 * stops at the first that differs), so the base's chunks are never hashed; digests of
 * the chunks as they are now, once per chunk after each write into it. An earlier version's
 * chunks are the chunks now with the later edits' voxels written back (newest first), made for
 * the chunks those edits wrote alone.
 */
import { createHash } from 'node:crypto';
import type { LabelArray, LabelVolume } from './label-volume.ts';
import type { WriteBack } from './version-voxels.ts';

/** What names a version format: a change to how ids are formed (3: chunks of 16 voxels a side) gives other ids. */
const FORMAT = 'vitrine-labels-version/3';

/** The SHA-256 (hex) of a chunk's bytes. */
function chunkDigest(chunk: LabelArray): string {
  return createHash('sha256').update(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength)).digest('hex');
}

/** A chunk's digest, or null where it holds what the base holds there. */
type Digest = string | null;

/**
 * A version's id from its base's id, its tables (their JSON; null when they are the base's) and
 * the digests of its chunks that differ from the base's, by chunk key.
 */
export function versionName(baseId: string, tables: string | null, differing: ReadonlyMap<number, string>): string {
  if (differing.size === 0 && tables === null) return baseId;
  const sha = createHash('sha256').update(`${FORMAT}\u0000${baseId}\u0000${tables ?? ''}\u0000`);
  for (const key of [...differing.keys()].sort((a, b) => a - b)) sha.update(`${key}:${differing.get(key)!}\n`);
  return sha.digest('hex');
}

/** Digests of one volume's chunks as they are now (null where a chunk holds the base's voxels). */
export class ChunkDigests {
  #volume: LabelVolume;
  #now = new Map<number, Digest>();
  /**
   * Where an earlier version's chunk is put together to be hashed: one chunk, reused (new
   * memory is slow to touch); each digest is taken before the next chunk is put there.
   */
  #scratch: LabelArray | null = null;

  constructor(volume: LabelVolume) {
    this.#volume = volume;
  }

  /**
   * The chunks that differ from the base, with their digests: now, or (with `later`, what the
   * edits after a version found where they wrote, oldest first) at that version.
   */
  differing(later: readonly WriteBack[] = []): Map<number, string> {
    const volume = this.#volume;
    for (const key of volume.takeWritten()) this.#now.delete(key);
    const then = this.#writtenBack(later);
    const out = new Map<number, string>();
    for (const key of volume.ownKeys()) {
      let digest = then.has(key) ? then.get(key) : this.#now.get(key);
      if (digest === undefined) this.#now.set(key, (digest = this.#digestOf(key, volume.chunkNow(key))));
      if (digest !== null) out.set(key, digest);
    }
    return out;
  }

  #digestOf(key: number, chunk: LabelArray): Digest {
    return this.#volume.differsFromBase(key, chunk) ? chunkDigest(chunk) : null;
  }

  /**
   * The digests of the chunks the edits of `later` wrote, each as it was before the first of
   * them: chunk by chunk, copied into the scratch chunk with the voxels those edits found
   * written back, newest first.
   */
  #writtenBack(later: readonly WriteBack[]): Map<number, Digest> {
    const volume = this.#volume;
    // Per chunk, what the edits found there: [place in the chunk, value] pairs, oldest first.
    const found = new Map<number, number[]>();
    for (const { index, before } of later)
      for (let j = 0; j < index.length; j++) {
        const { key, at } = volume.placeOf(index[j]!);
        let list = found.get(key);
        if (!list) found.set(key, (list = []));
        list.push(at, before[j]!);
      }
    const digests = new Map<number, Digest>();
    for (const [key, list] of found) {
      const chunk = this.#scratchNow(key);
      // Newest first: each voxel ends as the oldest of the edits found it.
      for (let p = list.length - 2; p >= 0; p -= 2) chunk[list[p]!] = list[p + 1]!;
      digests.set(key, this.#digestOf(key, chunk));
    }
    return digests;
  }

  /** Chunk `key` as it is now, copied into the scratch chunk. */
  #scratchNow(key: number): LabelArray {
    const now = this.#volume.chunkNow(key);
    if (this.#scratch?.length === now.length) this.#scratch.set(now);
    else this.#scratch = now.slice();
    return this.#scratch;
  }
}
