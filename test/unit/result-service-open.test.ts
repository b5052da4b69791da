/**
 * ResultService.open: a result whose bytes are still arriving is handed out early to a reader
 * that follows them (and only then), the computation is still shared and cached, and an early
 * reader's disconnect still cancels it.
 */
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { waitFor } from '../helpers/wait-for.ts';
import { RoomCache } from '../../core/cache/room-cache.ts';
import { PayloadFill } from '../../core/results/payload-fill.ts';
import { InvokerSet, type InvokeContext, type Invoker } from '../../core/invoke/invoker.ts';
import { ResultService } from '../../core/serving/result-service.ts';
import type { FunctionEntry } from '../../core/registry/function-entry.ts';
import type { StoredResult } from '../../core/results/stored-result.ts';

const entry: FunctionEntry = {
  name: 'w1:field',
  return_type: 'volume',
  schema: { type: 'object', properties: {} },
  parameters: [],
  async: false,
  source: { kind: 'remote', workerId: 'w1', remoteName: 'field' },
  plugin: null,
};

/** An invoker whose result arrives in steps the test drives, like a relayed one. */
class ArrivingInvoker implements Invoker {
  runs = 0;
  fill = new PayloadFill(8);
  cancelled = false;
  invoke(_entry: FunctionEntry, _values: Record<string, unknown>, ctx: InvokeContext): Promise<StoredResult> {
    this.runs++;
    const fill = (this.fill = new PayloadFill(8));
    const result = { type: 'volume', shape: [2, 2, 2], dtype: 'uint8', data: fill.bytes } as unknown as StoredResult;
    ctx.onArriving?.({
      result,
      async arrived(view, atLeast) {
        await fill.until(view.byteOffset + atLeast);
        return fill.filled - view.byteOffset;
      },
    });
    return new Promise((resolve, reject) => {
      ctx.signal.addEventListener('abort', () => {
        this.cancelled = true;
        fill.fail(new Error('cancelled'));
        reject(new Error('cancelled'));
      });
      fill.until(8).then(() => resolve(result), () => {});
    });
  }
}

function service(invoker: Invoker): ResultService {
  const cache = new RoomCache<StoredResult>({ ttlSeconds: 60, sweepIntervalMs: 0 });
  return new ResultService({ cache, invokers: new InvokerSet({ remote: invoker }), log: pino({ level: 'silent' }) });
}

describe('ResultService.open', () => {
  it('hands out the result while its bytes arrive, then caches it for the room', async () => {
    const invoker = new ArrivingInvoker();
    const results = service(invoker);
    const opened = await results.open({ entry, values: {}, roomId: 'r', followsArriving: true });
    expect(opened.arriving).not.toBeNull();
    expect(invoker.fill.filled).toBe(0);
    const data = (opened.result as unknown as { data: Uint8Array }).data;
    const firstHalf = opened.arriving!.arrived(data, 4);
    invoker.fill.write(Uint8Array.of(1, 2, 3, 4, 5));
    await expect(firstHalf).resolves.toBe(5);
    // A second peer of the room joins the same transfer instead of starting another.
    const second = await results.open({ entry, values: {}, roomId: 'r', followsArriving: true });
    expect(second.result).toBe(opened.result);
    invoker.fill.write(Uint8Array.of(6, 7, 8));
    await expect(results.compute({ entry, values: {}, roomId: 'r' })).resolves.toBe(opened.result);
    // Complete and cached: later readers get it with nothing left to wait for.
    const later = await results.open({ entry, values: {}, roomId: 'r', followsArriving: true });
    expect(later).toEqual({ result: opened.result, arriving: null });
    expect(invoker.runs).toBe(1);
  });

  it("answers a hit with the id the room's entry already holds", async () => {
    const invoker = new ArrivingInvoker();
    const cache = new RoomCache<StoredResult>({ ttlSeconds: 60, sweepIntervalMs: 0 });
    let ids = 0;
    const idOf = async () => `id-${++ids}`;
    const results = new ResultService({ cache, invokers: new InvokerSet({ remote: invoker }), log: pino({ level: 'silent' }), idOf });
    const opening = results.open({ entry, values: {}, roomId: 'r' });
    await waitFor(() => (invoker.runs === 1 ? true : undefined), 'the computation to start');
    invoker.fill.write(new Uint8Array(8));
    const computed = await opening;
    const hit = await results.open({ entry, values: {}, roomId: 'r' });
    expect(hit).toEqual({ result: computed.result, arriving: null, resultId: 'id-1' });
    expect(ids).toBe(1);
  });

  it('a reader that does not follow arriving bytes gets the result once every byte is in', async () => {
    const invoker = new ArrivingInvoker();
    const results = service(invoker);
    let whole = false;
    const opening = results.open({ entry, values: {}, roomId: 'r' }).then((opened) => {
      whole = true;
      return opened;
    });
    await waitFor(() => (invoker.runs === 1 ? true : undefined), 'the computation to start');
    invoker.fill.write(Uint8Array.of(1, 2, 3, 4, 5));
    expect(whole).toBe(false);
    invoker.fill.write(Uint8Array.of(6, 7, 8));
    const opened = await opening;
    expect(opened.arriving).toBeNull();
    expect(Array.from((opened.result as unknown as { data: Uint8Array }).data)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  });

  it('a reader that goes away mid-transfer cancels it when nobody else waits', async () => {
    const invoker = new ArrivingInvoker();
    const results = service(invoker);
    const controller = new AbortController();
    const opened = await results.open({ entry, values: {}, roomId: 'r', followsArriving: true, signal: controller.signal });
    invoker.fill.write(Uint8Array.of(1, 2));
    const rest = opened.arriving!.arrived((opened.result as unknown as { data: Uint8Array }).data, 8);
    controller.abort();
    expect(invoker.cancelled).toBe(true);
    await expect(rest).rejects.toThrow('cancelled');
    // Nothing half-received is cached: the next request computes again.
    await results.open({ entry, values: {}, roomId: 'r', followsArriving: true });
    expect(invoker.runs).toBe(2);
  });

  it('a computation every waiter left is not the room entry even when it finishes after the cancel', async () => {
    // An invoker that cannot be interrupted: its result comes when the test says, cancel or not.
    let finish: (result: StoredResult) => void = () => {};
    const stubborn: Invoker = { invoke: () => new Promise<StoredResult>((resolve) => (finish = resolve)) };
    const cache = new RoomCache<StoredResult>({ ttlSeconds: 60, sweepIntervalMs: 0 });
    const events: string[] = [];
    const results = new ResultService({
      cache,
      invokers: new InvokerSet({ remote: stubborn }),
      log: pino({ level: 'silent' }),
      publish: (_room, event) => events.push(event.event),
    });
    const controller = new AbortController();
    const opening = results.open({ entry, values: {}, roomId: 'r', signal: controller.signal });
    controller.abort();
    await expect(opening).rejects.toMatchObject({ code: 'SPC_ERR_JOB_CANCELLED' });
    finish({ type: 'volume', shape: [1, 1, 1], dtype: 'uint8', data: new Uint8Array(1) } as unknown as StoredResult);
    await waitFor(() => (events.includes('failed') ? true : undefined), 'the room to hear the computation ended');
    expect(await results.roomState('r')).toBeNull();
    expect(events).toEqual(['computing', 'failed']);
  });

  it('starts anew for a request of the values of a computation every waiter left, though it has not ended', async () => {
    // An invoker that cannot be interrupted: each run's result comes when the test says.
    const finishers: ((result: StoredResult) => void)[] = [];
    const stubborn: Invoker = { invoke: () => new Promise<StoredResult>((resolve) => finishers.push(resolve)) };
    const cache = new RoomCache<StoredResult>({ ttlSeconds: 60, sweepIntervalMs: 0 });
    const results = new ResultService({ cache, invokers: new InvokerSet({ remote: stubborn }), log: pino({ level: 'silent' }) });
    const controller = new AbortController();
    const left = results.open({ entry, values: {}, roomId: 'r', signal: controller.signal });
    controller.abort();
    await expect(left).rejects.toMatchObject({ code: 'SPC_ERR_JOB_CANCELLED' });
    // Asked again while the left one still runs: a computation of its own, not the cancelled one's end.
    const again = results.open({ entry, values: {}, roomId: 'r' });
    await waitFor(() => (finishers.length === 2 ? true : undefined), 'a second computation');
    const volume = (n: number) => ({ type: 'volume', shape: [1, 1, 1], dtype: 'uint8', data: Uint8Array.of(n) }) as unknown as StoredResult;
    finishers[0]!(volume(1));
    finishers[1]!(volume(2));
    const opened = await again;
    expect(Array.from((opened.result as unknown as { data: Uint8Array }).data)).toEqual([2]);
    // The first one's end did not take the second's place: the room holds the second's result.
    expect((await results.open({ entry, values: {}, roomId: 'r' })).result).toBe(opened.result);
  });
});
