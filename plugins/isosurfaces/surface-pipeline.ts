/**
 * @module surface-pipeline
 * Field → mesh, in steps a client can watch and cancel: sample the field slab by slab,
 * extract the surface slab by slab, compute normals. Each step reports one progress message,
 * then yields to the event loop and stops if the signal was aborted.
 */
import type { MeshResult, ProgressReporter } from 'vitrine';
import { computeVertexNormals } from '../shared/mesh-normals.ts';
import { sampleField, type FieldFunction } from './sampled-field.ts';
import { extractSurface } from './surface-nets.ts';

/** What to extract and how to report. */
export interface SurfaceJob {
  field: FieldFunction;
  /** Samples per axis. */
  resolution: number;
  /** The cube [min, max]³ sampled, in world units. */
  min: number;
  max: number;
  /** The surface is `field = level`; larger values are inside. */
  level: number;
  progress?: ProgressReporter | undefined;
  signal?: AbortSignal | undefined;
}

const yieldToLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** Runs the three steps and returns the outward-facing mesh with unit normals. */
export async function surfaceFromField(job: SurfaceJob): Promise<MeshResult> {
  const { resolution: n, progress, signal } = job;
  signal?.throwIfAborted();
  const sampled = await sampleField(job.field, n, job.min, job.max, async (z) => {
    progress?.report(`sampling field ${z + 1}/${n}`, ((z + 1) / n) * 0.45);
    await yieldToLoop();
    signal?.throwIfAborted();
  });
  const { vertices, indices } = await extractSurface(sampled, job.level, async (slab, slabs) => {
    progress?.report(`extracting surface ${slab + 1}/${slabs}`, 0.45 + ((slab + 1) / slabs) * 0.5);
    await yieldToLoop();
    signal?.throwIfAborted();
  });
  const normals = computeVertexNormals(vertices, indices);
  progress?.report(`computing normals: ${vertices.length / 3} vertices, ${indices.length / 3} triangles`, 1);
  return { type: 'mesh', vertices, indices, normals };
}
