/**
 * @module mesh-levels
 * A result's levels of detail from the client (`/api/results/{result_id}/meshes/`): its
 * surfaces, each surface's levels with its coarsest fragments (alone, or several surfaces'
 * with their GLB in one coarse bundle), one level's fragments, and one fragment's
 * meshopt-compressed GLB. Every answer is immutable (named by the result's content),
 * so a browser's cache keeps it. A result without levels answers `null` from `segments`.
 */
import type { MeshCoarseBundle, MeshLevelFragments, MeshSegmentLevels, MeshSegmentList } from '../wire/mesh-level-types.ts';
import { VitrineHttpError } from './errors.ts';
import type { Transport } from './transport.ts';

export class MeshLevels {
  readonly #http: Transport;
  readonly #path: string;

  constructor(http: Transport, readonly resultId: string) {
    this.#http = http;
    this.#path = `/api/results/${encodeURIComponent(resultId)}/meshes`;
  }

  /**
   * `segments.json`: the surfaces with levels; null when the result has none (a 404: not labels,
   * or a mesh within the bound). A `/data` answer's `Vitrine-Mesh-Levels` header, or a scene
   * layer's `levels`, says beforehand whether it has: a page asks only then.
   */
  async segments(signal?: AbortSignal): Promise<MeshSegmentList | null> {
    try {
      return await this.#http.json<MeshSegmentList>('GET', `${this.#path}/segments.json`, { signal });
    } catch (error) {
      if (error instanceof VitrineHttpError && error.status === 404) return null;
      throw error;
    }
  }

  /** `{segment}.json`: a segment's levels and its coarsest fragments (building its set on first ask). */
  segment(segment: number, signal?: AbortSignal): Promise<MeshSegmentLevels> {
    return this.#http.json('GET', `${this.#path}/${segment}.json`, { signal });
  }

  /** `{segment}/{level}.json`: one level's fragments. */
  level(segment: number, level: number, signal?: AbortSignal): Promise<MeshLevelFragments> {
    return this.#http.json('GET', `${this.#path}/${segment}/${level}.json`, { signal });
  }

  /** A fragment's GLB bytes, by its path as a level lists it (`{segment}/{level}/{index}.glb`). */
  async fragment(glb: string, signal?: AbortSignal): Promise<ArrayBuffer> {
    return (await this.#http.send('GET', `${this.#path}/${glb}`, { signal })).arrayBuffer();
  }

  /** Coarse bundle `k`: its segments' levels, and their coarsest fragments' GLB bytes by path. */
  async coarse(k: number, signal?: AbortSignal): Promise<{ segments: MeshCoarseBundle; glbs: Map<string, ArrayBuffer> }> {
    const bytes = await (await this.#http.send('GET', `${this.#path}/coarse/${k}`, { signal })).arrayBuffer();
    const length = new DataView(bytes).getUint32(0, true);
    const segments = JSON.parse(new TextDecoder().decode(new Uint8Array(bytes, 4, length))) as MeshCoarseBundle;
    const glbs = new Map<string, ArrayBuffer>();
    let at = 4 + length;
    for (const fragment of segments.flatMap((segment) => segment.coarsest)) {
      glbs.set(fragment.glb, bytes.slice(at, at + fragment.bytes));
      at += fragment.bytes;
    }
    return { segments, glbs };
  }
}
