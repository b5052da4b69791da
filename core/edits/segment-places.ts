/**
 * @module segment-places
 * What a labels volume knows of each segment without looking at its voxels: how many it holds,
 * the chunks it may lie in (a superset: a chunk it left stays listed, so a merge or a presence
 * check looks at those chunks alone) and the largest id the volume has ever held. Changes come
 * in whole writes: counts summed, then each id's new chunks listed.
 */

/** What the volume knows of one segment. */
export interface SegmentPlace {
  count: number;
  chunks: Set<number>;
}

export class SegmentPlaces {
  #places = new Map<number, SegmentPlace>();

  /**
   * The places of every segment of `base` (C order over `shape`), found in one pass by runs of
   * one id per row, each run cut where a chunk of `chunk` voxels a side ends along x.
   */
  static of(base: ArrayLike<number>, shape: readonly number[], chunkOf: (z: number, y: number, x: number) => number, chunk: number): SegmentPlaces {
    const places = new SegmentPlaces();
    const [nz, ny, nx] = shape as [number, number, number];
    for (let z = 0; z < nz; z++)
      for (let y = 0; y < ny; y++) {
        const row = (z * ny + y) * nx;
        let x = 0;
        while (x < nx) {
          const id = base[row + x]!;
          let end = x + 1;
          while (end < nx && base[row + end] === id && end % chunk !== 0) end++;
          if (id !== 0) places.add(id, end - x, chunkOf(z, y, x));
          x = end;
        }
      }
    return places;
  }
  /** The largest id the volume has ever held. */
  maxEver = 0;

  /** Voxels of segment `id` now (0 when absent; background is never counted). */
  count(id: number): number {
    return this.#places.get(id)?.count ?? 0;
  }

  /** The chunks segment `id` may lie in. */
  chunksOf(id: number): readonly number[] {
    return [...(this.#places.get(id)?.chunks ?? [])];
  }

  /** Adds `by` voxels (negative: takes them) to each id's count; a segment left with none is gone. */
  counted(counts: ReadonlyMap<number, number>): void {
    for (const [id, by] of counts) {
      if (id === 0) continue;
      const place = this.#place(id);
      place.count += by;
      if (place.count <= 0) this.#places.delete(id);
      else if (id > this.maxEver) this.maxEver = id;
    }
  }

  /** Lists chunks each id now lies in (ids with no voxels left are skipped). */
  entered(chunks: ReadonlyMap<number, Iterable<number>>): void {
    for (const [id, keys] of chunks) {
      const place = this.#places.get(id);
      if (place) for (const key of keys) place.chunks.add(key);
    }
  }

  /** Segment `id` holds `voxels` more in chunk `key` (the first count of a volume). */
  add(id: number, voxels: number, key: number): void {
    const place = this.#place(id);
    place.count += voxels;
    place.chunks.add(key);
    if (id > this.maxEver) this.maxEver = id;
  }

  #place(id: number): SegmentPlace {
    let place = this.#places.get(id);
    if (!place) this.#places.set(id, (place = { count: 0, chunks: new Set() }));
    return place;
  }
}
