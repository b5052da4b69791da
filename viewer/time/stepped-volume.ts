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
import type { VolumeData } from '../../core/wire/decoded-types.ts';
import type { LayerChannel, LayerDisplay } from '../../core/wire/scene-types.ts';
import type { RoomView } from '../../core/wire/wire-types.ts';
import { ChannelList, type ChannelState } from './channel-list.ts';
import { COARSE_VOLUME_DIM } from '../room/coarse-first.ts';
import { h, replaceChildren } from '../dom.ts';
import { rgbOf } from '../layers/volume/channel-volume.ts';
import { finiteRange } from '../layers/volume/colormaps.ts';
import type { LayerLook } from '../stage/stage-content.ts';
import { createStepContent, type StepPiece } from '../stage/step-content.ts';
import type { VolumeContent, VolumeStage } from '../layers/volume/volume-slices.ts';
import { defaultWindow } from '../layers/volume/window-level.ts';
import { StepCache, type FetchStep, type StepChannel } from './step-cache.ts';
import { StepPlayer } from './step-player.ts';
import { TimeControls } from './time-controls.ts';
import { createVectorMode } from '../panels/params/vector-mode.ts';

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

/** The stepped volume starting from `first` (the step the page was given); `fetch` gets any other. */
export function createSteppedVolume(first: VolumeData, fetch: FetchStep, stage: VolumeStage): VolumeContent {
  const step = first.step!;
  const steps = Math.max(1, step.sizes.t ?? 1);
  const count = Math.max(1, step.sizes.c ?? 1);
  const vector = first.vector === true && count === 3;
  const meta = first.channels ?? [];
  /** Each channel's window when neither the room nor the result gives one: read once, from the first step of it drawn. */
  const windows = new Map<number, [number, number]>();
  let vectorMode: StepChannel = vector ? step.c : 0;
  let roomT: number | undefined;
  let roomChannels: LayerChannel[] | undefined;
  let display: LayerDisplay = {};
  let view: RoomView = {};
  let look: LayerLook | null = null;
  let attached = false;
  let inner: VolumeContent | null = null;
  let drawnKey = '';
  const holder = new THREE.Group();
  const slot = h('div', { class: 'step-panel' });

  const share = (change: LayerDisplay): void => content.onDisplayChange?.(change);
  const channelStates = (): ChannelState[] =>
    Array.from({ length: count }, (_, i) => ({
      name: meta[i]?.name ?? `channel ${i}`,
      visible: roomChannels?.[i]?.visible ?? true,
      color: roomChannels?.[i]?.color ?? meta[i]?.color ?? DEFAULT_COLORS[i % DEFAULT_COLORS.length]!,
      window: roomChannels?.[i]?.window ?? meta[i]?.window ?? windows.get(i) ?? [0, 1],
    }));
  /** The pieces a step needs: the vector mode, the visible channels, or the one volume. */
  const wanted = (): StepChannel[] => {
    if (vector) return [vectorMode];
    if (count > 1) return channelStates().flatMap((state, i) => (state.visible ? [i] : []));
    return [0];
  };

  // The coarse level: a volume's coarse first size, but at least halved on its longest axis (a small volume's coarse is no gain).
  const longest = Math.max(...['z', 'y', 'x'].map((axis) => step.sizes[axis] ?? 1));
  const cache = new StepCache(fetch, () => player.redraw(), { coarseDim: Math.max(1, Math.min(COARSE_VOLUME_DIM, Math.ceil(longest / 2))) });
  // A coarse first answer (a large result shown coarse first) is smaller than the whole's space.
  const whole = ['z', 'y', 'x'].every((axis, i) => step.sizes[axis] === undefined || first.shape[i] === step.sizes[axis]);
  cache.seed(step.t, step.c, whole ? 'full' : 'coarse', first);

  /** The step before the one shown, until a frame has drawn the new one (or the next step comes). */
  let retired: VolumeContent | null = null;
  const retire = (): void => {
    retired?.dispose();
    retired = null;
  };
  const swap = (next: VolumeContent | null): void => {
    const before = inner;
    retire();
    if (before) {
      holder.remove(before.object);
      // Freed once the next frame has drawn the new step: its materials then take over the
      // shader programs the old ones hold, where freeing first would have them compiled again.
      // A page whose frames come from a headset frees it when the next step comes instead.
      retired = before;
      if (next) requestAnimationFrame(() => retired === before && retire());
      else retire();
    }
    inner = next;
    if (next) {
      next.onViewChange = (change) => {
        view = { ...view, ...change };
        content.onViewChange?.(change);
      };
      holder.add(next.object);
      if (attached) next.attach?.();
      if (look) next.applyLook?.(look);
      next.applyView?.(view);
      next.applyDisplay?.(display);
    }
    replaceChildren(slot, next?.panel ?? null);
    stage.changed();
  };

  /**
   * Draws step `t` when its pieces are in (full ones first); true when it is drawn. `partial`
   * draws the pieces that are in (the first picture, so the stage has something to frame).
   */
  const draw = (t: number, partial = false): boolean => {
    const pieces: (StepPiece & { coarse: boolean })[] = [];
    for (const c of wanted()) {
      const full = cache.get(t, c, 'full');
      const data = full ?? cache.get(t, c, 'coarse');
      if (!data && partial) continue;
      if (!data) return false;
      if (typeof c === 'number' && !windows.has(c)) windows.set(c, openingWindow(data));
      pieces.push({ c, data, coarse: !full });
    }
    if (partial && pieces.length === 0) return false;
    const states = count > 1 && !vector ? channelStates() : null;
    const key = JSON.stringify([t, pieces.map((p) => [p.c, p.coarse]), states]);
    if (key === drawnKey) return true;
    drawnKey = key;
    const looks = states && ((c: number) => ({ rgb: rgbOf(states[c]!.color), window: states[c]!.window }));
    swap(pieces.length > 0 ? createStepContent(pieces, looks, stage) : null);
    time?.drawn(t, pieces.some((p) => p.coarse));
    panel.dataset.drawn = `${t}:${pieces.map((p) => p.c).join(',')}`;
    channels?.show(channelStates());
    return true;
  };
  const player = new StepPlayer({ steps, cache, wanted, draw: (t) => draw(t), changed: (t, rate) => time?.show(t, rate) });

  const time =
    steps > 1
      ? new TimeControls(steps, first, {
          seek(next) {
            player.go(next);
            share({ t: player.t });
          },
          play(rate) {
            player.setRate(rate);
            share({ playing: player.rate });
          },
          pause() {
            player.pause();
            share({ playing: 0, t: player.t });
          },
        })
      : null;
  const channels =
    count > 1 && !vector
      ? new ChannelList(count, (next) => {
          roomChannels = next;
          player.go(player.t);
          share({ channels: next });
        })
      : null;
  const vectorRow = vector
    ? createVectorMode(vectorMode, (c) => {
        vectorMode = c;
        player.go(player.t);
      })
    : null;
  const panel = h('div', { class: 'stepped-panel', 'data-testid': 'stepped-panel' }, time?.element, channels?.element, vectorRow, slot);

  const content: VolumeContent = {
    object: holder,
    panel,
    applyView(next) {
      view = { ...view, ...next };
      inner?.applyView?.(next);
    },
    applyDisplay(next) {
      display = next;
      inner?.applyDisplay?.(next);
      let seek = false;
      if (next.t !== roomT) {
        roomT = next.t;
        seek = typeof next.t === 'number';
      }
      const rate = steps > 1 ? (next.playing ?? 0) : 0;
      // A pause stops every page on the room's step, even one the room named before playing.
      if (seek || (rate === 0 && player.rate > 0)) player.go(roomT ?? player.t);
      if (JSON.stringify(next.channels) !== JSON.stringify(roomChannels) && next.channels !== undefined) {
        // Other channels or looks: the same step (a playing page keeps its place) drawn afresh.
        roomChannels = next.channels;
        player.go(player.t);
      }
      player.setRate(rate);
    },
    applyLook(next) {
      look = next;
      inner?.applyLook?.(next);
    },
    pick: (ray, kept) => inner?.pick?.(ray, kept) ?? null,
    attach() {
      attached = true;
      inner?.attach?.();
    },
    dispose() {
      player.stop();
      cache.clear();
      swap(null);
    },
  };
  player.go(step.t);
  if (player.drawn < 0) draw(player.t, true);
  return content;
}
