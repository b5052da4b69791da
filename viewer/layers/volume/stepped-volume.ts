/**
 * @module stepped-volume
 * A volume with time or channels on the stage, one 3-D step at a time: the step its layer
 * names (`t`), played at its layer's `playing` steps per second, its visible channels each in
 * its colour and added up (or a vector field's magnitude, one component or direction as
 * colour). Which step is wanted, what is fetched around it and when playback moves on is
 * step-player.ts's; a step is drawn as soon as its pieces are in (step-cache.ts), from the
 * full level or, when that was late, the coarse one. What the user does here (a step, play, pause,
 * a channel's look) goes to its layer: the room shares it, and every page that follows shows
 * the same step. Each page plays by its own clock at the shared rate; a step set in the
 * room (a seek, or the step a pause stopped on) brings every page to it.
 */
import * as THREE from 'three';
import type { VolumeData } from '../../../core/wire/decoded-types.ts';
import type { LayerChannel, LayerDisplay } from '../../../core/wire/scene-types.ts';
import type { RoomView } from '../../../core/wire/room-types.ts';
import { ChannelList, type ChannelState } from '../../time/channel-list.ts';
import { COARSE_VOLUME_DIM } from '../../coarse-first.ts';
import { h, replaceChildren } from '../../dom.ts';
import { rgbOf } from './channel-volume.ts';
import { finiteRange } from './colormaps.ts';
import type { ContentHit, LayerLook } from '../../stage/stage-content.ts';
import { createStepContent, createVectorMode, type StepPiece } from './step-content.ts';
import type { VolumeStage } from './volume-base.ts';
import type { VolumeContent } from './volume-slices.ts';
import { defaultWindow } from '../../../core/wire/window-level.ts';
import { StepCache, type FetchStep, type StepChannel } from '../../time/step-cache.ts';
import { StepPlayer } from '../../time/step-player.ts';
import { TimeControls } from '../../time/time-controls.ts';

/** Colours of channels the result gives none: green, magenta, cyan, then others. */
const DEFAULT_COLORS = ['#00ff00', '#ff00ff', '#00ffff', '#ff0000', '#0000ff', '#ffff00', '#ffffff'];

/** A channel's window from a step of it, as any volume opens (window-level.ts), over its range across every step. */
function openingWindow(data: VolumeData): [number, number] {
  const [min, max] = data.value_range ?? finiteRange(data.data);
  const { low, high } = defaultWindow(data.data, min, max);
  return high > low ? [low, high] : [min, max > min ? max : min + 1];
}

/** True for an answer that is one step of a volume with time or channels. */
export function isStep(data: VolumeData): boolean {
  return data.step !== undefined && ((data.step.sizes.t ?? 1) > 1 || (data.step.sizes.c ?? 1) > 1);
}

/**
 * A volume with time or channels on the stage: the step shown, its controls, and the room's word on both,
 * starting from `first` (the step the page was given); `fetch` gets any other.
 */
export class SteppedVolume implements VolumeContent {
  readonly object = new THREE.Group();
  readonly panel: HTMLElement;
  onViewChange?: (change: RoomView) => void;
  onDisplayChange?: (change: LayerDisplay) => void;
  readonly #stage: VolumeStage;
  readonly #steps: number;
  readonly #count: number;
  readonly #vector: boolean;
  readonly #meta: NonNullable<VolumeData['channels']>;
  /** Each channel's window when neither the room nor the result gives one: read once, from the first step of it drawn. */
  readonly #windows = new Map<number, [number, number]>();
  #vectorMode: StepChannel;
  #roomT: number | undefined;
  #roomChannels: LayerChannel[] | undefined;
  #display: LayerDisplay = {};
  #view: RoomView = {};
  #look: LayerLook | null = null;
  #attached = false;
  #inner: VolumeContent | null = null;
  #drawnKey = '';
  /**
   * The step drawn before the one shown, kept until a frame has drawn its successor: that one's
   * materials then take over the shader programs the old ones hold, where freeing first would
   * have them compiled again.
   */
  #retired: VolumeContent | null = null;
  readonly #slot = h('div', { class: 'step-panel' });
  readonly #cache: StepCache;
  readonly #player: StepPlayer;
  readonly #time: TimeControls | null;
  readonly #channels: ChannelList | null;

  constructor(first: VolumeData, fetch: FetchStep, stage: VolumeStage) {
    const step = first.step!;
    this.#stage = stage;
    this.#steps = Math.max(1, step.sizes.t ?? 1);
    this.#count = Math.max(1, step.sizes.c ?? 1);
    this.#vector = first.vector === true && this.#count === 3;
    this.#meta = first.channels ?? [];
    this.#vectorMode = this.#vector ? step.c : 0;
    this.#cache = this.#createCache(first, fetch);
    const wanted = (): StepChannel[] => this.#wanted();
    this.#player = new StepPlayer({
      steps: this.#steps,
      cache: this.#cache,
      wanted,
      draw: (t) => this.#draw(t),
      changed: (t, rate) => this.#time?.show(t, rate),
    });
    this.#time = this.#steps > 1 ? this.#createTime(first) : null;
    this.#channels = this.#count > 1 && !this.#vector ? this.#createChannels() : null;
    const vectorRow = this.#vector ? createVectorMode(this.#vectorMode, (c) => this.#setVectorMode(c)) : null;
    const controls = [this.#time?.element, this.#channels?.element, vectorRow];
    this.panel = h('div', { class: 'stepped-panel', 'data-testid': 'stepped-panel' }, ...controls, this.#slot);
    this.#player.go(step.t);
    if (this.#player.drawn < 0) this.#draw(this.#player.t, true);
  }

  #createCache(first: VolumeData, fetch: FetchStep): StepCache {
    const step = first.step!;
    // The coarse level: a volume's coarse first size, but at least halved on its longest axis
    // (a small volume's coarse is no gain).
    const longest = Math.max(...['z', 'y', 'x'].map((axis) => step.sizes[axis] ?? 1));
    const coarseDim = Math.max(1, Math.min(COARSE_VOLUME_DIM, Math.ceil(longest / 2)));
    const cache = new StepCache(fetch, () => this.#player.redraw(), { coarseDim });
    // A coarse first answer (a large result shown coarse first) is smaller than the whole's space.
    const whole = ['z', 'y', 'x'].every((axis, i) => step.sizes[axis] === undefined || first.shape[i] === step.sizes[axis]);
    cache.seed(step.t, step.c, whole ? 'full' : 'coarse', first);
    return cache;
  }

  #createTime(first: VolumeData): TimeControls {
    const player = this.#player;
    return new TimeControls(this.#steps, first, {
      seek: (next) => {
        player.go(next);
        this.onDisplayChange?.({ t: player.t });
      },
      play: (rate) => {
        player.setRate(rate);
        this.onDisplayChange?.({ playing: player.rate });
      },
      pause: () => {
        player.pause();
        this.onDisplayChange?.({ playing: 0, t: player.t });
      },
    });
  }

  #createChannels(): ChannelList {
    return new ChannelList(this.#count, (next) => {
      this.#roomChannels = next;
      this.#player.go(this.#player.t);
      this.onDisplayChange?.({ channels: next });
    });
  }

  #setVectorMode(c: StepChannel): void {
    this.#vectorMode = c;
    this.#player.go(this.#player.t);
  }

  #channelStates(): ChannelState[] {
    const room = this.#roomChannels;
    return Array.from({ length: this.#count }, (_, i) => ({
      name: this.#meta[i]?.name ?? `channel ${i}`,
      visible: room?.[i]?.visible ?? true,
      color: room?.[i]?.color ?? this.#meta[i]?.color ?? DEFAULT_COLORS[i % DEFAULT_COLORS.length]!,
      window: room?.[i]?.window ?? this.#meta[i]?.window ?? this.#windows.get(i) ?? [0, 1],
    }));
  }

  /** The pieces a step needs: the vector mode, the visible channels, or the one volume. */
  #wanted(): StepChannel[] {
    if (this.#vector) return [this.#vectorMode];
    if (this.#count > 1) return this.#channelStates().flatMap((state, i) => (state.visible ? [i] : []));
    return [0];
  }

  #swap(next: VolumeContent | null): void {
    const before = this.#inner;
    this.#retired?.dispose();
    this.#retired = null;
    if (before) {
      this.object.remove(before.object);
      if (!next) before.dispose();
      else {
        // A page whose frames come from a headset frees it when the next step comes instead.
        this.#retired = before;
        requestAnimationFrame(() => {
          if (this.#retired !== before) return;
          before.dispose();
          this.#retired = null;
        });
      }
    }
    this.#inner = next;
    if (next) {
      next.onViewChange = (change) => {
        this.#view = { ...this.#view, ...change };
        this.onViewChange?.(change);
      };
      this.object.add(next.object);
      if (this.#attached) next.attach?.();
      if (this.#look) next.applyLook?.(this.#look);
      next.applyView?.(this.#view);
      next.applyDisplay?.(this.#display);
    }
    replaceChildren(this.#slot, next?.panel ?? null);
    this.#stage.changed();
  }

  /** The pieces of step `t` that are in (full ones first), or null while one is missing (unless `partial`). */
  #pieces(t: number, partial: boolean): (StepPiece & { coarse: boolean })[] | null {
    const pieces: (StepPiece & { coarse: boolean })[] = [];
    for (const c of this.#wanted()) {
      const full = this.#cache.get(t, c, 'full');
      const data = full ?? this.#cache.get(t, c, 'coarse');
      if (!data && partial) continue;
      if (!data) return null;
      if (typeof c === 'number' && !this.#windows.has(c)) this.#windows.set(c, openingWindow(data));
      pieces.push({ c, data, coarse: !full });
    }
    return partial && pieces.length === 0 ? null : pieces;
  }

  /**
   * Draws step `t` when its pieces are in (full ones first); true when it is drawn. `partial`
   * draws the pieces that are in (the first picture, so the stage has something to frame).
   */
  #draw(t: number, partial = false): boolean {
    const pieces = this.#pieces(t, partial);
    if (!pieces) return false;
    const states = this.#count > 1 && !this.#vector ? this.#channelStates() : null;
    const key = JSON.stringify([t, pieces.map((p) => [p.c, p.coarse]), states]);
    if (key === this.#drawnKey) return true;
    this.#drawnKey = key;
    const looks = states && ((c: number) => ({ rgb: rgbOf(states[c]!.color), window: states[c]!.window }));
    this.#swap(pieces.length > 0 ? createStepContent(pieces, looks, this.#stage) : null);
    this.#time?.drawn(t, pieces.some((p) => p.coarse));
    this.panel.dataset.drawn = `${t}:${pieces.map((p) => p.c).join(',')}`;
    this.#channels?.show(this.#channelStates());
    return true;
  }

  applyView(next: RoomView): void {
    this.#view = { ...this.#view, ...next };
    this.#inner?.applyView?.(next);
  }

  applyDisplay(next: LayerDisplay): void {
    const player = this.#player;
    this.#display = next;
    this.#inner?.applyDisplay?.(next);
    let seek = false;
    if (next.t !== this.#roomT) {
      this.#roomT = next.t;
      seek = typeof next.t === 'number';
    }
    const rate = this.#steps > 1 ? (next.playing ?? 0) : 0;
    // A pause stops every page on the room's step, even one the room named before playing.
    if (seek || (rate === 0 && player.rate > 0)) player.go(this.#roomT ?? player.t);
    if (JSON.stringify(next.channels) !== JSON.stringify(this.#roomChannels) && next.channels !== undefined) {
      // Other channels or looks: the same step (a playing page keeps its place) drawn afresh.
      this.#roomChannels = next.channels;
      player.go(player.t);
    }
    player.setRate(rate);
  }

  applyLook(next: LayerLook): void {
    this.#look = next;
    this.#inner?.applyLook?.(next);
  }

  pick(ray: THREE.Raycaster, kept: (point: THREE.Vector3) => boolean): ContentHit | null {
    return this.#inner?.pick?.(ray, kept) ?? null;
  }

  attach(): void {
    this.#attached = true;
    this.#inner?.attach?.();
  }

  dispose(): void {
    this.#player.stop();
    this.#cache.clear();
    this.#swap(null);
  }
}
