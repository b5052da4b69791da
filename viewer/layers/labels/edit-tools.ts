/**
 * @module edit-tools
 * The segmentation tools, apart from how a pick is made (a click on the page, a controller's
 * trigger in a headset): merge takes two picks on two segments and joins the second into the
 * first; split gathers seed voxels of one segment in groups (the next group on request) and
 * sends them together; the brush paints a ball of its radius at each picked voxel, with its
 * label, or 0 to erase, and optionally over one label only. Each finished gesture is one edit
 * of the picked layer, handed to `send`.
 */
import type { ClientEdit, Voxel } from '../../../core/wire/edit-types.ts';
import type { StagePick } from '../../stage/stage-pick.ts';

export type EditTool = 'none' | 'merge' | 'split' | 'brush';

export interface BrushSettings {
  radius: number;
  label: number;
  erase: boolean;
  /** Paint only over voxels that hold this label; null: over anything. */
  only: number | null;
}

export interface EditToolHooks {
  /** An edit of `layer` is ready. */
  send(layer: string, edit: ClientEdit): void;
  /** What the user is to do next, or what went wrong. */
  say(text: string): void;
}

/** A labels pick: its layer, the voxel as [z, y, x] and the segment there. */
interface LabelPick {
  layer: string;
  voxel: Voxel;
  id: number;
}

const NEXT: Record<EditTool, string> = {
  none: '',
  merge: 'Pick the segment to keep.',
  split: 'Pick seed voxels of the segment to split; "Next group" starts another group.',
  brush: 'Pick where to paint.',
};

export class EditTools {
  readonly brush: BrushSettings = { radius: 3, label: 1, erase: false, only: null };
  readonly #hooks: EditToolHooks;
  #tool: EditTool = 'none';
  #first: LabelPick | null = null;
  #seeds: Voxel[][] = [[]];
  #segment: { layer: string; id: number } | null = null;

  constructor(hooks: EditToolHooks) {
    this.#hooks = hooks;
  }

  get tool(): EditTool {
    return this.#tool;
  }

  /** The split's seed groups so far (the last one may be empty). */
  get seeds(): readonly Voxel[][] {
    return this.#seeds;
  }

  setTool(tool: EditTool): void {
    this.#tool = tool;
    this.reset();
  }

  /** Forgets a merge's first pick and a split's seeds. */
  reset(): void {
    this.#first = null;
    this.#seeds = [[]];
    this.#segment = null;
    this.#hooks.say(NEXT[this.#tool]);
  }

  /** A pick with the current tool; false when it did nothing (no tool, or not on a segmentation). */
  picked(pick: StagePick | null): boolean {
    if (this.#tool === 'none') return false;
    const at = labelPick(pick);
    if (!at) return this.#refuse('Pick a voxel of a segmentation (its slices or its volume).');
    if (this.#tool === 'brush') return this.#paint(at);
    if (this.#tool === 'merge') return this.#merge(at);
    return this.#seed(at);
  }

  /** Starts the split's next seed group. */
  nextGroup(): void {
    if (this.#seeds.at(-1)!.length === 0) return this.#hooks.say('Place a seed in this group first.');
    this.#seeds.push([]);
    this.#hooks.say(`Group ${this.#seeds.length}: pick its seeds.`);
  }

  /** Sends the split made of the seed groups placed. */
  applySplit(): void {
    const groups = this.#seeds.filter((group) => group.length > 0);
    if (!this.#segment || groups.length < 2) return this.#hooks.say('A split needs seeds in at least two groups.');
    this.#hooks.send(this.#segment.layer, { op: 'split', segment: this.#segment.id, seeds: groups });
    this.reset();
  }

  #paint(at: LabelPick): boolean {
    const { radius, label, erase, only } = this.brush;
    this.#hooks.send(at.layer, { op: 'paint', label: erase ? 0 : label, center: at.voxel, radius, ...(only === null ? {} : { only }) });
    return true;
  }

  #merge(at: LabelPick): boolean {
    if (at.id === 0) return this.#refuse('That is background: pick a segment.');
    const first = this.#first;
    if (!first || first.layer !== at.layer) {
      this.#first = at;
      this.#hooks.say(`Keeping ${at.id}: pick the segment to merge into it.`);
      return true;
    }
    if (first.id === at.id) return this.#refuse(`That is ${at.id} again: pick another segment.`);
    this.#hooks.send(at.layer, { op: 'merge', segments: [first.id, at.id] });
    this.reset();
    return true;
  }

  #seed(at: LabelPick): boolean {
    const segment = this.#segment;
    if (at.id === 0) return this.#refuse('That is background: seeds go on the segment to split.');
    if (segment && (segment.layer !== at.layer || segment.id !== at.id)) {
      return this.#refuse(`Seeds go on segment ${segment.id}: that is ${at.id}.`);
    }
    this.#segment = { layer: at.layer, id: at.id };
    this.#seeds.at(-1)!.push(at.voxel);
    const counts = this.#seeds.map((group) => group.length).join(' + ');
    this.#hooks.say(`Splitting ${at.id}: seeds ${counts}. "Next group" or "Apply split".`);
    return true;
  }

  /** Says why a pick did nothing; false, as the pick's answer. */
  #refuse(why: string): false {
    this.#hooks.say(why);
    return false;
  }
}

function labelPick(pick: StagePick | null): LabelPick | null {
  if (!pick?.label || !pick.voxel) return null;
  const { x, y, z } = pick.voxel;
  return { layer: pick.layer, voxel: [z, y, x], id: pick.label.id };
}
