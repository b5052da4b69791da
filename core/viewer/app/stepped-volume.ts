/**
 * @module stepped-volume
 * A volume with time or channels on the stage, one 3-D step at a time: the step its layer
 * names (`t`), played at its layer's `playing` steps per second, its visible channels each in
 * its colour and added up (or a vector field's magnitude, one component or direction as
 * colour). Steps are fetched a few ahead and behind in both directions (step-cache.ts) and a
 * step is drawn as soon as its pieces are in. While playing, a step that is not in when its
 * beat comes is fetched at a coarser level too, and whichever level comes first is drawn: a
 * slow link plays coarse rather than stops. What the user does here (a step, play, pause,
 * a channel's look) goes to its layer: the room shares it, and every page that follows shows
 * the same step. Each page plays by its own clock at the shared rate; a step set in the
 * room (a seek, or the step a pause stopped on) brings every page to it.
 */
import * as THREE from 'three';
import type { VolumeData } from '../../client/decoded-types.ts';
import type { LayerChannel, LayerDisplay } from '../../client/scene-types.ts';
import type { RoomView } from '../../client/wire-types.ts';
import { ChannelList, type ChannelState } from './channel-list.ts';
import { h, replaceChildren } from './dom.ts';
import { rgbOf } from './stage/channel-volume.ts';
import type { LayerLook } from './stage/stage-content.ts';
import { createStepContent, type StepPiece } from './stage/step-content.ts';
import type { VolumeContent, VolumeStage } from './stage/volume-slices.ts';
import { StepCache, type FetchStep, type StepChannel } from './step-cache.ts';
import { StepClock } from './step-clock.ts';
import { TimeControls } from './time-controls.ts';
import { createVectorMode } from './vector-mode.ts';

/** Steps fetched ahead and behind the one shown. */
const AROUND = 2;

/** Colours of channels the result gives none: green, magenta, cyan, then others. */
const DEFAULT_COLORS = ['#00ff00', '#ff00ff', '#00ffff', '#ff0000', '#0000ff', '#ffff00', '#ffffff'];

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
  const ranges = new Map<number, [number, number]>();
  let t = Math.min(step.t, steps - 1);
  let vectorMode: StepChannel = vector ? step.c : 0;
  let roomT: number | undefined;
  let roomChannels: LayerChannel[] | undefined;
  let display: LayerDisplay = {};
  let view: RoomView = {};
  let look: LayerLook | null = null;
  let attached = false;
  let inner: VolumeContent | null = null;
  let drawnKey = '';
  let drawnT = -1;
  const holder = new THREE.Group();
  const slot = h('div', { class: 'step-panel' });

  const share = (change: LayerDisplay): void => content.onDisplayChange?.(change);
  const channelStates = (): ChannelState[] =>
    Array.from({ length: count }, (_, i) => ({
      name: meta[i]?.name ?? `channel ${i}`,
      visible: roomChannels?.[i]?.visible ?? true,
      color: roomChannels?.[i]?.color ?? meta[i]?.color ?? DEFAULT_COLORS[i % DEFAULT_COLORS.length]!,
      window: roomChannels?.[i]?.window ?? meta[i]?.window ?? ranges.get(i) ?? [0, 1],
    }));
  /** The pieces a step needs: the vector mode, the visible channels, or the one volume. */
  const wanted = (): StepChannel[] => {
    if (vector) return [vectorMode];
    if (count > 1) return channelStates().flatMap((state, i) => (state.visible ? [i] : []));
    return [0];
  };

  const cache = new StepCache(fetch, () => draw());
  cache.seed(step.t, step.c, 'full', first);

  const swap = (next: VolumeContent | null): void => {
    if (inner) {
      holder.remove(inner.object);
      inner.dispose();
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
  const draw = (partial = false): boolean => {
    const pieces: (StepPiece & { coarse: boolean })[] = [];
    for (const c of wanted()) {
      const full = cache.get(t, c, 'full');
      const data = full ?? cache.get(t, c, 'coarse');
      if (!data && partial) continue;
      if (!data) return false;
      if (typeof c === 'number' && data.value_range) ranges.set(c, data.value_range);
      pieces.push({ c, data, coarse: !full });
    }
    const states = count > 1 && !vector ? channelStates() : null;
    if (partial && pieces.length === 0) return false;
    const key = JSON.stringify([t, pieces.map((p) => [p.c, p.coarse]), states]);
    if (key === drawnKey) return true;
    drawnKey = key;
    drawnT = t;
    const looks = states && ((c: number) => ({ rgb: rgbOf(states[c]!.color), window: states[c]!.window }));
    swap(pieces.length > 0 ? createStepContent(pieces, looks, stage) : null);
    time?.drawn(t, pieces.some((p) => p.coarse));
    panel.dataset.drawn = `${t}:${pieces.map((p) => p.c).join(',')}`;
    channels?.show(channelStates());
    return true;
  };

  /** Wants step `next`: fetches it and the steps around it, and draws it if it is in. */
  const go = (next: number): void => {
    t = Math.max(0, Math.min(steps - 1, next));
    const cs = wanted();
    for (const c of cs) cache.load(t, c, 'full');
    for (let k = 1; k <= AROUND; k++) {
      for (const c of cs) {
        cache.load((t + k) % steps, c, 'full');
        cache.load((t - k + steps) % steps, c, 'full');
      }
    }
    draw();
    time?.show(t, clock.rate);
  };

  const clock = new StepClock(() => {
    // The step before is still not drawn: wait for it (its coarse level is on its way).
    if (drawnT !== t) return;
    go((t + 1) % steps);
    if (drawnT !== t) for (const c of wanted()) cache.load(t, c, 'coarse');
  });

  const time =
    steps > 1
      ? new TimeControls(steps, first, {
          seek(next) {
            go(next);
            share({ t });
          },
          play(rate) {
            clock.setRate(rate);
            time!.show(t, rate);
            share({ playing: clock.rate });
          },
          pause() {
            clock.stop();
            time!.show(t, 0);
            share({ playing: 0, t });
          },
        })
      : null;
  const channels =
    count > 1 && !vector
      ? new ChannelList(count, (next) => {
          roomChannels = next;
          go(t);
          share({ channels: next });
        })
      : null;
  const vectorRow = vector
    ? createVectorMode(vectorMode, (c) => {
        vectorMode = c;
        go(t);
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
      let moved = false;
      if (next.t !== roomT) {
        roomT = next.t;
        if (typeof next.t === 'number') moved = true;
      }
      if (JSON.stringify(next.channels) !== JSON.stringify(roomChannels) && next.channels !== undefined) {
        roomChannels = next.channels;
        moved = true;
      }
      const rate = next.playing ?? 0;
      // A pause stops every page on the room's step, even one the room named before playing.
      if (moved || (rate === 0 && clock.rate > 0)) go(typeof roomT === 'number' ? roomT : t);
      clock.setRate(rate);
      time?.show(t, clock.rate);
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
      clock.stop();
      cache.clear();
      swap(null);
    },
  };
  go(t);
  if (drawnT < 0) draw(true);
  return content;
}
