import { describe, expect, it } from 'vitest';
import { RoomScheduler } from '../../core/invoke/room-scheduler.ts';
import { RunDurations, SHORT_RUN_MS } from '../../core/invoke/run-durations.ts';

const flush = () => new Promise((resolve) => setImmediate(resolve));

describe('RoomScheduler', () => {
  it('caps one room at perRoom threads while another room still gets one', async () => {
    const scheduler = new RoomScheduler({ threads: 2, perRoom: 1 });
    const a1 = await scheduler.acquire('a');
    let a2Granted = false;
    const a2 = scheduler.acquire('a').then((release) => ((a2Granted = true), release));
    const b1 = await scheduler.acquire('b');
    await flush();
    expect(a2Granted).toBe(false);
    expect(scheduler.busy).toBe(2);
    expect(scheduler.queued).toBe(1);
    a1();
    expect(await a2).toBeTypeOf('function');
    b1();
  });

  it('serves waiting rooms round-robin, not first come first served', async () => {
    const scheduler = new RoomScheduler({ threads: 1, perRoom: 1 });
    const order: string[] = [];
    const first = await scheduler.acquire('a');
    const releases: (() => void)[] = [];
    const waits = ['a', 'a', 'a', 'b', 'c'].map((room) =>
      scheduler.acquire(room).then((release) => {
        order.push(room);
        releases.push(release);
      }),
    );
    first();
    for (let turn = 0; turn < waits.length; turn++) {
      await flush();
      releases.shift()!();
    }
    await Promise.all(waits);
    expect(order).toEqual(['a', 'b', 'c', 'a', 'a']);
  });

  it('drops a waiter whose signal aborts, and rejects it as cancelled', async () => {
    const scheduler = new RoomScheduler({ threads: 1, perRoom: 1 });
    const held = await scheduler.acquire('a');
    const controller = new AbortController();
    const waiting = scheduler.acquire('b', controller.signal);
    controller.abort();
    await expect(waiting).rejects.toMatchObject({ code: 'SPC_ERR_JOB_CANCELLED' });
    expect(scheduler.queued).toBe(0);
    held();
    expect(scheduler.busy).toBe(0);
  });

  it('gives the lane to short work while long runs hold every general thread, and no general thread to a short flood while long work waits', async () => {
    let now = 0;
    const durations = new RunDurations(() => now);
    const scheduler = new RoomScheduler({ threads: 1, perRoom: 1, durations });
    // Teach it: `quick` runs 10 ms, `slow` a second.
    (await scheduler.acquire('x', undefined, 'quick'))();
    const slowRelease = await scheduler.acquire('a', undefined, 'slow');
    now += 1000;
    slowRelease();
    const held = await scheduler.acquire('a', undefined, 'slow');
    let longGranted = false;
    const waitingLong = scheduler.acquire('b', undefined, 'slow').then((release) => ((longGranted = true), release));
    // Short runs from many rooms share the lane, one at a time, while the long one waits.
    for (const room of ['c', 'd', 'e']) {
      const release = await scheduler.acquire(room, undefined, 'quick');
      expect(scheduler.busy).toBe(2);
      now += 10;
      release();
    }
    await flush();
    expect(longGranted).toBe(false);
    held();
    (await waitingLong)();
    expect(longGranted).toBe(true);
    expect(scheduler.busy).toBe(0);
  });

  it('learns from runs: an unknown function gets the lane once at a time, mostly long runs make it long, mostly short ones short', () => {
    let now = 0;
    const durations = new RunDurations(() => now);
    expect(durations.isShort('f')).toBe(true);
    const first = durations.start('f');
    expect(durations.isShort('f')).toBe(false);
    now += SHORT_RUN_MS;
    first.end(true);
    expect(durations.isShort('f')).toBe(false);
    const slow = durations.start('f');
    now += 2 * SHORT_RUN_MS;
    slow.end(true);
    for (let i = 0; i < 4; i++) {
      const run = durations.start('f');
      now += 20;
      run.end(true);
    }
    expect(durations.isShort('f')).toBe(true);
    // A run cancelled early teaches nothing; one past the mark still counts as long.
    const cancelled = durations.start('f');
    now += 1;
    cancelled.end(false);
    expect(durations.isShort('f')).toBe(true);
    const going = durations.start('f');
    now += SHORT_RUN_MS;
    expect(durations.isShort('f')).toBe(false);
    going.end(false);
    // One long run among three short ones does not make it long; a second one does.
    expect(durations.isShort('f')).toBe(true);
    for (let i = 0; i < 2; i++) {
      const run = durations.start('f');
      now += SHORT_RUN_MS;
      run.end(true);
    }
    expect(durations.isShort('f')).toBe(false);
  });

  it('times a run by the length its thread measured when given, not by when the host read its end', () => {
    let now = 0;
    const durations = new RunDurations(() => now);
    const run = durations.start('f');
    // A busy host reads the end of a 3 ms call a second after it started.
    now += 1000;
    run.end(true, 3);
    expect(durations.isShort('f')).toBe(true);
    const unmeasured = durations.start('f');
    now += 1000;
    unmeasured.end(true);
    expect(durations.isShort('f')).toBe(true);
    const again = durations.start('f');
    now += 1000;
    again.end(true);
    expect(durations.isShort('f')).toBe(false);
  });
});
