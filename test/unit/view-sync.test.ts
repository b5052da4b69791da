/**
 * ViewSync: a room's view applied and shared without echo loops: what the page shows is not
 * applied again, its own sent values coming back do nothing, an event older than its own
 * change in flight does not pull it back, a change waiting to be sent wins, and changes made
 * in one quiet spell travel as one request.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RoomView } from '../../core/wire/room-types.ts';
import { ViewSync } from '../../viewer/room/view-sync.ts';

function harness() {
  const sent: RoomView[] = [];
  const applied: RoomView[] = [];
  let settle: () => void = () => {};
  const sync = new ViewSync({
    debounceMs: 200,
    send: (view) => {
      sent.push(view);
      return new Promise<void>((resolve) => (settle = resolve));
    },
    apply: (view) => applied.push(view),
  });
  return { sync, sent, applied, settle: () => settle() };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('ViewSync', () => {
  it('applies a room view once and only what differs from what is shown', () => {
    const { sync, applied } = harness();
    sync.remote({ window: [0, 10], colormap: 'magma' });
    sync.remote({ window: [0, 10], colormap: 'magma' });
    sync.remote({ window: [0, 10], colormap: 'gray', camera: { position: [1, 2, 3], target: [0, 0, 0], up: [0, 1, 0] } });
    sync.remote({ colormap: 'gray', camera: { up: [0, 1, 0], target: [0, 0, 0], position: [1, 2, 3] } });
    sync.remote(null);
    expect(applied).toEqual([{ window: [0, 10], colormap: 'magma' }, { colormap: 'gray', camera: { position: [1, 2, 3], target: [0, 0, 0], up: [0, 1, 0] } }]);
    expect(sync.current.window).toEqual([0, 10]);
  });

  it('sends the changes of one quiet spell as one request with the latest values', () => {
    const { sync, sent } = harness();
    sync.local({ window: [0, 5] });
    vi.advanceTimersByTime(100);
    sync.local({ window: [0, 6] });
    sync.local({ colormap: 'ice' });
    vi.advanceTimersByTime(199);
    expect(sent).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(sent).toEqual([{ window: [0, 6], colormap: 'ice' }]);
  });

  it('ignores the echo of its own change and anything older that arrives before it', async () => {
    const { sync, sent, applied, settle } = harness();
    sync.remote({ window: [0, 10] });
    sync.local({ window: [2, 8] });
    vi.advanceTimersByTime(200);
    expect(sent).toEqual([{ window: [2, 8] }]);
    // Another setting's event carries the room's older window: the page stays where its user put it.
    sync.remote({ window: [0, 10], colormap: 'magma' });
    sync.remote({ window: [2, 8], colormap: 'magma' });
    settle();
    await Promise.resolve();
    expect(applied).toEqual([{ window: [0, 10] }, { colormap: 'magma' }]);
    // A peer's later change applies.
    sync.remote({ window: [3, 4], colormap: 'magma' });
    expect(applied.at(-1)).toEqual({ window: [3, 4] });
  });

  it('a change waiting to be sent wins over the room; nothing is sent after reset', () => {
    const { sync, sent, applied } = harness();
    sync.local({ opacity: 0.5 });
    sync.remote({ opacity: 0.9 });
    expect(applied).toEqual([]);
    vi.advanceTimersByTime(200);
    expect(sent).toEqual([{ opacity: 0.5 }]);
    sync.local({ opacity: 0.7 });
    sync.reset();
    vi.advanceTimersByTime(500);
    expect(sent).toHaveLength(1);
    sync.remote({ opacity: 0.9 });
    expect(applied).toEqual([{ opacity: 0.9 }]);
  });

  it('an own change whose echo never comes stops holding the setting a while after it settled', async () => {
    const { sync, applied, settle } = harness();
    sync.local({ mode: 'volume' });
    vi.advanceTimersByTime(200);
    settle();
    await Promise.resolve();
    sync.remote({ mode: 'slices' });
    expect(applied).toEqual([]);
    vi.advanceTimersByTime(3001);
    sync.remote({ mode: 'slices' });
    expect(applied).toEqual([{ mode: 'slices' }]);
  });
});
