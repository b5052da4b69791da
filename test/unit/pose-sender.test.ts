/**
 * A page's own pose on its way to the live socket: sent at once when it changed and the last
 * frame left long enough ago, else after the gap with only the newest change; never when
 * unchanged (rounding counted); again after a new socket; and not counted when no socket took it.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Pose } from '../../core/wire/live-types.ts';
import { POSE_GAP_MS, PoseSender } from '../../viewer/presence/pose-sender.ts';

const at = (x: number): Pose => ({ head: { position: [x, 1, 2], orientation: [0, 0, 0, 1] } });

describe('PoseSender', () => {
  beforeEach(() => void vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] }));
  afterEach(() => void vi.useRealTimers());

  it('sends a change at once, holds changes to one frame per gap, and skips what did not change', () => {
    const sent: string[] = [];
    const sender = new PoseSender((text) => (sent.push(text), true));
    sender.update(at(1));
    expect(sent).toHaveLength(1);
    sender.update(at(1.0000001));
    sender.update(at(2));
    sender.update(at(3));
    expect(sent).toHaveLength(1);
    vi.advanceTimersByTime(POSE_GAP_MS);
    expect(sent.map((text) => (JSON.parse(text) as Pose).head!.position[0])).toEqual([1, 3]);
    vi.advanceTimersByTime(POSE_GAP_MS * 4);
    sender.update(at(3));
    expect(sent).toHaveLength(2);
    expect(sender.sent).toBe(2);
  });

  it('drops a change that went back to what was sent, and sends again after a reset', () => {
    const sent: string[] = [];
    const sender = new PoseSender((text) => (sent.push(text), true));
    sender.update(at(1));
    sender.update(at(2));
    sender.update(at(1));
    vi.advanceTimersByTime(POSE_GAP_MS);
    expect(sent).toHaveLength(1);
    sender.reset();
    sender.update(at(1));
    expect(sent).toHaveLength(2);
  });

  it('counts nothing a closed socket did not take, and sends that pose once one takes it', () => {
    let open = false;
    const sender = new PoseSender(() => open);
    sender.update(at(1));
    expect(sender.sent).toBe(0);
    open = true;
    sender.update(at(1));
    expect(sender.sent).toBe(1);
  });
});
