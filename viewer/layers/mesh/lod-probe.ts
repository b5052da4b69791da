/**
 * @module lod-probe
 * What a test or a benchmark reads of the layers drawn from levels of detail
 * (`window.vitrineLod`): per layer, the frames drawn, the most triangles drawn in one frame,
 * how many frames had holes (a surface's place not covered: a fragment gone before all of its
 * children came), when the first picture (every shown surface's coarsest level) was drawn, and
 * what the layer holds and asked for. `reset()` starts the counts afresh (a new leg of a
 * fly-through). It changes nothing.
 */

/** One layer's figures. */
export interface LodProbeLayer {
  /** The result whose levels the layer draws. */
  resultId: string;
  frames: number;
  /** Frames drawn in a VR session. */
  vrFrames: number;
  /** Triangles drawn in the latest frame, and the most in any frame since the last reset. */
  triangles: number;
  maxTriangles: number;
  /** The frame budget in force at the latest frame. */
  budget: number;
  /** Holes in the latest frame, and frames with any since the last reset. */
  holes: number;
  holeFrames: number;
  /** Fragments drawn in the latest frame, by level (index 0 the finest). */
  levels: number[];
  /** performance.now() of the first frame drawing every shown surface's coarsest level; null before. */
  firstPictureAt: number | null;
  /** Surfaces known and shown (all of their coarsest level drawn). */
  segments: number;
  shown: number;
  heldBytes: number;
  inFlight: number;
  started: number;
  cancelled: number;
  evicted: number;
  /** GLB bytes fetched. */
  fetchedBytes: number;
}

declare global {
  interface Window {
    vitrineLod?: { layers(): LodProbeLayer[]; reset(): void };
  }
}

const layers = new Set<LodProbeLayer>();

/** How many layers draw from levels of detail now (they share a frame's triangle budget). */
export function lodLayerCount(): number {
  return layers.size;
}

/** A layer's figures, listed until `forget`. */
export function probeLayer(resultId: string): { figures: LodProbeLayer; forget(): void } {
  window.vitrineLod ??= {
    layers: () => [...layers].map((layer) => ({ ...layer, levels: [...layer.levels] })),
    reset: () => {
      for (const layer of layers) {
        layer.maxTriangles = layer.triangles;
        layer.holeFrames = 0;
      }
    },
  };
  const figures: LodProbeLayer = {
    resultId,
    ...{ frames: 0, vrFrames: 0, triangles: 0, maxTriangles: 0, budget: 0, holes: 0, holeFrames: 0, levels: [] },
    ...{ firstPictureAt: null, segments: 0, shown: 0, heldBytes: 0, inFlight: 0, started: 0, cancelled: 0, evicted: 0, fetchedBytes: 0 },
  };
  layers.add(figures);
  return { figures, forget: () => layers.delete(figures) };
}
