import { describe, expect, it } from 'vitest';
import { RoomScheduler } from '../../core/invoke/room-scheduler.ts';

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
});
