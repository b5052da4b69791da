/**
 * @module coarse-first
 * A large result is shown coarse first, then refined. The first request for a mesh or a
 * volume asks for a small delivery of it (a volume averaged down to 64 samples per axis, a
 * mesh simplified to 20,000 triangles). The full result is fetched from the room cache as soon
 * as the coarse answer's headers have come: its making and transfer overlap the coarse body's
 * transfer, decoding and drawing, and never hold the coarse view up (the host makes delivery
 * variants one at a time, so asking earlier would queue the full result's encoding before the
 * coarse one's). The coarse view carries a visible note until the full one is drawn; a full
 * result that is in before the coarse view is drawn is drawn alone, and a drawn full view is
 * never replaced by the coarse one. When the coarse answer is provably the whole result (a
 * volume no larger than half the coarse size on every axis, a mesh far under the coarse
 * budget), nothing more is fetched: a small coarse answer is read before deciding, and a full
 * fetch already under way is cancelled.
 */
import type { SpecimenData } from '../core/wire/decoded-types.ts';
import type { DeliveryQuery } from '../core/wire/wire-types.ts';
import { h } from './dom.ts';

/** Samples per axis of a coarse volume (the OME-Zarr pyramid's smallest level is as small). */
export const COARSE_VOLUME_DIM = 64;

/** Triangles of a coarse mesh. */
export const COARSE_MESH_TRIANGLES = 20_000;

/**
 * A coarse answer of at most this many bytes is read whole before the full result is asked
 * for: it takes milliseconds even on a slow link, and it may prove to be the whole result (a
 * small volume, a mesh of a few thousand triangles), which then costs one request. A larger
 * one, or one of unknown length, lets the full fetch start with its headers.
 */
export const READ_BEFORE_REFINING_BYTES = 16 * 1024;

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

/** The byte length an answer announces (its Content-Length), or null when it does not. */
export function answerBytes(response: Response): number | null {
  const length = response.headers.get('content-length');
  return length === null || !/^\d+$/.test(length.trim()) ? null : Number(length);
}

/** The note shown over a coarse view while the full one loads. */
export function createRefineNote(): HTMLElement {
  return h(
    'div',
    { class: 'refine-note', role: 'status', 'data-testid': 'refine-note', hidden: '' },
    'Coarse preview — loading full detail…',
  );
}

/** Shows or hides the note; while it shows, the stage is not dimmed (the coarse view is the picture). */
export function showRefineNote(note: HTMLElement, stagePane: HTMLElement, on: boolean): void {
  note.hidden = !on;
  if (on) stagePane.classList.remove('busy');
}

/** What coarse-first loading does with the viewer (viewer-app.ts supplies each step). */
export interface CoarseFirstSteps {
  /**
   * Runs the request (the job flow) with this delivery and decodes the answer; calls
   * `answered` with the answer's byte length (null when unknown) once its headers have come.
   */
  first(delivery: DeliveryQuery | undefined, answered?: (bytes: number | null) => void): Promise<SpecimenData>;
  /** Fetches the full result (a room cache hit by then) with this delivery; `signal` cancels it. */
  full(delivery: DeliveryQuery | undefined, signal?: AbortSignal): Promise<SpecimenData>;
  /** Draws data on the stage; `refined` keeps the camera where the coarse view left it. */
  show(data: SpecimenData, refined: boolean): Promise<void>;
  /** Shows or hides the refining note. */
  refining(on: boolean): void;
  isCurrent(): boolean;
  /** False when the coarse answer is all that is wanted (a mesh drawn from its levels of detail); absent: mayRefine decides. */
  refines?(coarse: SpecimenData): boolean;
}

/** Loads and draws a result, coarse first when its type refines. */
export async function loadCoarseFirst(type: string, fine: DeliveryQuery | undefined, steps: CoarseFirstSteps): Promise<void> {
  const coarse = coarseDelivery(type, fine);
  if (coarse === null) {
    const only = await steps.first(fine);
    if (!steps.isCurrent()) return;
    steps.refining(false);
    await steps.show(only, false);
    return;
  }
  // The full fetch, started at most once, and whether it has come in.
  const stop = new AbortController();
  let fullData: Promise<SpecimenData> | null = null;
  const full = { arrived: false };
  const startFull = (): Promise<SpecimenData> => {
    if (!fullData) {
      fullData = steps.full(fine, stop.signal);
      // Settled here so that a fetch nobody waits for (cancelled, or failed after a failed coarse one) is no unhandled rejection.
      fullData.then(
        () => (full.arrived = true),
        () => {},
      );
    }
    return fullData;
  };
  let first: SpecimenData;
  try {
    first = await steps.first(coarse, (bytes) => {
      if (bytes === null || bytes > READ_BEFORE_REFINING_BYTES) void startFull();
    });
  } catch (error) {
    stop.abort();
    throw error;
  }
  if (!steps.isCurrent()) {
    stop.abort();
    return;
  }
  if (!mayRefine(first, coarse) || steps.refines?.(first) === false) {
    stop.abort();
    steps.refining(false);
    await steps.show(first, false);
    return;
  }
  const wholeData = startFull();
  const coarseDrawn = !full.arrived;
  if (coarseDrawn) {
    steps.refining(true);
    await steps.show(first, false);
    if (!steps.isCurrent()) {
      stop.abort();
      return;
    }
  }
  try {
    const data = await wholeData;
    if (!steps.isCurrent()) return;
    // The coarse view stays until the full one is drawn (framed afresh when there was none).
    await steps.show(data, coarseDrawn);
  } finally {
    if (steps.isCurrent()) steps.refining(false);
  }
}
