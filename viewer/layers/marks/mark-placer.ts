/**
 * @module mark-placer
 * Placing marks with clicks on the stage. With a tool chosen, a click (not a drag: dragging
 * still turns the camera) picks what is seen first under it (stage-pick.ts): a mesh's surface,
 * a slice's voxel or a ray-marched volume's first visible sample, a voxel standing for its
 * centre. A point takes one click; a ruler two (its ends); a box two (opposite corners);
 * Escape forgets a first click. In VR a controller's trigger stands for the click, its ray for
 * the line under the mouse (`placeAlong`): the same picks, the same marks. The points go in the frame of the layer they were picked on
 * when both ends lie on the same layer of the room's scene (the host then measures in that
 * layer's units), else in the room's frame, where any two layers' points meet.
 */
import type * as THREE from 'three';
import type { AnnotationInput, Vec3 } from '../../../core/wire/scene-types.ts';
import type { Stage } from '../../stage/stage.ts';
import type { StagePick } from '../../stage/stage-pick.ts';

/** What a click does: nothing (the camera only), or place a point, a ruler or a box. */
export type MarkTool = 'none' | 'point' | 'line' | 'box';

export interface MarkPlacerHooks {
  stage: Stage;
  /** True when `layer` is a layer of the room's scene (its id is one the host knows). */
  isLayer(layer: string): boolean;
  /** A mark was placed: its kind, points and frame. */
  place(draft: Pick<AnnotationInput, 'kind' | 'points' | 'layer'>): void;
  /** Where the first click of a ruler or a box was (room frame), or null. */
  pending(point: THREE.Vector3 | null): void;
  /** What the user is to do next, or what went wrong. */
  say(text: string): void;
}

/** What a pick did: nothing under it, a ruler's or a box's first end taken, or a mark placed. */
export type PlaceOutcome = 'missed' | 'first' | 'placed';

/** A pointer that moved farther than this between press and release dragged the camera. */
const CLICK_SLOP_PX = 5;

const NEXT: Record<Exclude<MarkTool, 'none'>, string> = {
  point: 'Click on a surface, a slice or a volume to place a point.',
  line: 'Click the ruler’s first end.',
  box: 'Click one corner of the box.',
};

export class MarkPlacer {
  readonly #hooks: MarkPlacerHooks;
  #tool: MarkTool = 'none';
  #down: { x: number; y: number } | null = null;
  #first: StagePick | null = null;

  constructor(hooks: MarkPlacerHooks) {
    this.#hooks = hooks;
    const canvas = hooks.stage.canvas;
    canvas.addEventListener('pointerdown', (event) => (this.#down = { x: event.clientX, y: event.clientY }));
    canvas.addEventListener('click', (event) => this.#click(event));
    window.addEventListener('keydown', (event) => {
      if (event.key === 'Escape' && this.#first) this.#begin();
    });
  }

  get tool(): MarkTool {
    return this.#tool;
  }

  /** True while a ruler's or a box's first end is taken and the second awaited. */
  get waiting(): boolean {
    return this.#first !== null;
  }

  setTool(tool: MarkTool): void {
    this.#tool = tool;
    this.#hooks.stage.canvas.dataset.markTool = tool;
    this.#begin();
  }

  /** Back to the tool's first click. */
  #begin(): void {
    this.#first = null;
    this.#hooks.pending(null);
    this.#hooks.say(this.#tool === 'none' ? '' : NEXT[this.#tool]);
  }

  #click(event: MouseEvent): void {
    const down = this.#down;
    this.#down = null;
    if (this.#tool === 'none' || (down && Math.hypot(event.clientX - down.x, event.clientY - down.y) > CLICK_SLOP_PX)) return;
    this.#picked(this.#hooks.stage.pickAt(event.clientX, event.clientY));
  }

  /** The trigger of a controller whose ray (world space) is `ray`: what a click there would do (nothing without a tool). */
  placeAlong(ray: THREE.Raycaster): PlaceOutcome | null {
    return this.#tool === 'none' ? null : this.#picked(this.#hooks.stage.pickRay(ray));
  }

  #picked(pick: StagePick | null): PlaceOutcome {
    const tool = this.#tool;
    if (tool === 'none') return 'missed';
    if (!pick) {
      this.#hooks.say('Nothing there to mark: click on a surface, a slice or a volume.');
      return 'missed';
    }
    if (tool === 'point') {
      this.#hooks.place({ kind: 'point', ...this.#frameOf([pick]) });
      return 'placed';
    }
    if (!this.#first) {
      this.#first = pick;
      this.#hooks.pending(pick.place.room);
      this.#hooks.say(
        tool === 'line' ? 'Click the ruler’s other end (Escape to start again).' : 'Click the opposite corner (Escape to start again).',
      );
      return 'first';
    }
    const picks = [this.#first, pick];
    this.#begin();
    this.#hooks.place({ kind: tool, ...this.#frameOf(picks) });
    return 'placed';
  }

  /** The points of `picks` in one frame: their layer's when they share a scene layer, else the room's. */
  #frameOf(picks: StagePick[]): { points: Vec3[]; layer?: string } {
    const layer = picks[0]!.layer;
    const own = picks.every((pick) => pick.layer === layer) && this.#hooks.isLayer(layer);
    const points = picks.map((pick) => (own ? pick.place.local : pick.place.room).toArray() as Vec3);
    return own ? { points, layer } : { points };
  }
}
