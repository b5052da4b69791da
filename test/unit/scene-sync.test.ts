/**
 * SceneSync: each layer's display between a page and its room. A change made here is sent as
 * one PATCH per layer once the changes pause, the page shows it over the room's scene until
 * its echo came back (an older scene event does not pull it back), a peer's later change then
 * applies, and layers the page did not touch are the room's as they are.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { LayerChange } from '../../core/wire/scene-types.ts';
import type { RoomScene, SceneLayer } from '../../core/wire/scene-types.ts';
import { SceneSync } from '../../viewer/room/scene-sync.ts';

const layer = (id: string, display: Partial<SceneLayer> = {}): SceneLayer => ({ id, source: { specimen: id }, kind: 'image', ...display });
const scene = (version: number, ...layers: SceneLayer[]): RoomScene => ({ version, layers, active: layers[0]?.id ?? null });

function harness() {
  const sent: [string, LayerChange][] = [];
  let settle: () => void = () => {};
  const sync = new SceneSync({
    debounceMs: 200,
    send: (id, change) => {
      sent.push([id, change]);
      return new Promise<void>((resolve) => (settle = resolve));
    },
  });
  return { sync, sent, settle: () => settle() };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('SceneSync', () => {
  it('sends the changes of one quiet spell as one PATCH per layer, with the latest values', () => {
    const { sync, sent } = harness();
    sync.resolve(scene(1, layer('scan'), layer('labels', { opacity: 0.4 })));
    sync.local('labels', { opacity: 0.5 });
    vi.advanceTimersByTime(100);
    sync.local('labels', { opacity: 0.6 });
    sync.local('scan', { visible: false });
    expect(sent).toEqual([]);
    vi.advanceTimersByTime(200);
    expect(sent).toEqual([['labels', { opacity: 0.6 }], ['scan', { visible: false }]]);
  });

  it('shows its own change over the room until the echo, then a peer\'s later change', async () => {
    const { sync, settle } = harness();
    sync.resolve(scene(1, layer('scan'), layer('labels', { opacity: 0.4 })));
    sync.local('labels', { opacity: 0.8 });
    // Before the change is even sent, and when the room's older scene comes again, the page keeps 0.8.
    expect(sync.resolve(scene(1, layer('scan'), layer('labels', { opacity: 0.4 }))).layers[1]!.opacity).toBe(0.8);
    vi.advanceTimersByTime(200);
    settle();
    await Promise.resolve();
    expect(sync.resolve(scene(2, layer('scan', { colormap: 'magma' }), layer('labels', { opacity: 0.4 }))).layers.map((l) => [l.colormap, l.opacity])).toEqual([
      ['magma', undefined],
      [undefined, 0.8],
    ]);
    // The echo arrives; a peer's later value then applies.
    expect(sync.resolve(scene(3, layer('scan'), layer('labels', { opacity: 0.8 }))).layers[1]!.opacity).toBe(0.8);
    expect(sync.resolve(scene(4, layer('scan'), layer('labels', { opacity: 0.3 }))).layers[1]!.opacity).toBe(0.3);
  });

  it('gives the room\'s scene back as it is where the page changed nothing, and forgets its changes on reset', () => {
    const { sync, sent } = harness();
    const room = scene(5, layer('scan', { window: [0, 10] }), layer('cell', { visible: false }));
    expect(sync.resolve(room)).toEqual(room);
    sync.local('cell', { visible: true });
    sync.reset();
    vi.advanceTimersByTime(1000);
    expect(sent).toEqual([]);
    expect(sync.resolve(room).layers[1]!.visible).toBe(false);
  });
});
