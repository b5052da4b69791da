/**
 * @module coarse-first
 * A large result is shown coarse first, then refined. The first request for a mesh or a
 * volume asks for a small delivery of it (a volume averaged down to 64 samples per axis, a
 * mesh simplified to 20,000 triangles); once that is drawn, the full result is fetched from the
 * room cache and replaces it when it has been drawn in turn. The coarse view carries a visible
 * note meanwhile. When the coarse answer is provably the whole result (a volume no larger
 * than half the coarse size on every axis, a mesh far under the coarse budget), nothing more
 * is fetched.
 */
import type { SpecimenData } from '../../client/decoded-types.ts';
import type { DeliveryQuery } from '../../client/wire-types.ts';
import { h } from './dom.ts';

/** Samples per axis of a coarse volume (the OME-Zarr pyramid's smallest level is as small). */
export const COARSE_VOLUME_DIM = 64;

/** Triangles of a coarse mesh. */
export const COARSE_MESH_TRIANGLES = 20_000;

/**
 * The delivery of the coarse request, or null when there is none: a type that is not refined,
 * or a page that already asks for no more than the coarse size (a small VR triangle budget).
 */
export function coarseDelivery(type: string, fine: DeliveryQuery | undefined): DeliveryQuery | null {
  if (type === 'volume' && !(Number(fine?.max_dim) <= COARSE_VOLUME_DIM)) return { ...fine, max_dim: COARSE_VOLUME_DIM };
  if (type === 'mesh' && !(Number(fine?.max_triangles) <= COARSE_MESH_TRIANGLES)) return { ...fine, max_triangles: COARSE_MESH_TRIANGLES };
  return null;
}

/**
 * Whether the full result may differ from the coarse one. An axis of a reduced volume keeps at
 * least half the coarse size (ceil(n / ceil(n / 64)) > 32 for n > 64); a simplified mesh
 * lands near its budget, so one under a quarter of it was not simplified.
 */
export function mayRefine(coarse: SpecimenData, asked: DeliveryQuery): boolean {
  if (coarse.type === 'volume') return coarse.shape.some((n) => n > Number(asked.max_dim) / 2);
  if (coarse.type === 'mesh') return coarse.indices.length / 3 > Number(asked.max_triangles) / 4;
  return false;
}

/** The note shown over a coarse view while the full one loads. */
export function createRefineNote(): HTMLElement {
  return h('div', { class: 'refine-note', role: 'status', 'data-testid': 'refine-note', hidden: '' }, 'Coarse preview — loading full detail…');
}

/** Shows or hides the note; while it shows, the stage is not dimmed (the coarse view is the picture). */
export function showRefineNote(note: HTMLElement, stagePane: HTMLElement, on: boolean): void {
  note.hidden = !on;
  if (on) stagePane.classList.remove('busy');
}

/** What coarse-first loading does with the viewer (viewer-app.ts supplies each step). */
export interface CoarseFirstSteps {
  /** Runs the request (the job flow) with this delivery and decodes the answer. */
  first(delivery: DeliveryQuery | undefined): Promise<SpecimenData>;
  /** Fetches the full result (a room cache hit by then) with this delivery. */
  full(delivery: DeliveryQuery | undefined): Promise<SpecimenData>;
  /** Draws data on the stage; `refined` keeps the camera where the coarse view left it. */
  show(data: SpecimenData, refined: boolean): Promise<void>;
  /** Shows or hides the refining note. */
  refining(on: boolean): void;
  isCurrent(): boolean;
}

/** Loads and draws a result, coarse first when its type refines. */
export async function loadCoarseFirst(type: string, fine: DeliveryQuery | undefined, steps: CoarseFirstSteps): Promise<void> {
  const coarse = coarseDelivery(type, fine);
  const first = await steps.first(coarse ?? fine);
  if (!steps.isCurrent()) return;
  const refines = coarse !== null && mayRefine(first, coarse);
  steps.refining(refines);
  await steps.show(first, false);
  if (!refines || !steps.isCurrent()) return;
  try {
    const full = await steps.full(fine);
    if (!steps.isCurrent()) return;
    // The coarse view stays until the full one is drawn.
    await steps.show(full, true);
  } finally {
    if (steps.isCurrent()) steps.refining(false);
  }
}
