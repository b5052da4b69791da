/**
 * A room shows the latest thing asked of it, not the latest to finish: a computation that ends
 * after something newer was asked in its room answers its own waiters and leaves the room's
 * entry (and its followers) to the newer; a finished job's result stays the room's regardless; a
 * follower's echo of the room's entry is a hit but not an ask.
 */
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { RoomCache } from '../../core/cache/room-cache.ts';
import { InvokerSet, type InvokeContext, type Invoker } from '../../core/invoke/invoker.ts';
import { ResultService } from '../../core/serving/result-service.ts';
import type { FunctionEntry } from '../../core/registry/function-entry.ts';
import type { StoredResult } from '../../core/results/stored-result.ts';
import type { HostEvent } from '../../core/events/event-hub.ts';

const entry: FunctionEntry = {
  name: 'w1:shape',
  return_type: 'mesh',
  schema: { type: 'object', properties: { n: { type: 'integer' } } },
  parameters: [],
  async: false,
  source: { kind: 'remote', workerId: 'w1', remoteName: 'shape' },
  plugin: null,
};

/** Each computation ends when the test says so, with a result naming its `n`. */
class HeldInvoker implements Invoker {
  #release = new Map<number, () => void>();
  invoke(_entry: FunctionEntry, values: Record<string, unknown>, _ctx: InvokeContext): Promise<StoredResult> {
    const n = values.n as number;
    return new Promise((resolve) => this.#release.set(n, () => resolve({ type: 'mesh', n } as unknown as StoredResult)));
  }
  async end(n: number): Promise<void> {
    while (!this.#release.has(n)) await new Promise((resolve) => setImmediate(resolve));
    this.#release.get(n)!();
  }
}

function setUp() {
  const invoker = new HeldInvoker();
  const events: { room: string; event: HostEvent }[] = [];
  const cache = new RoomCache<StoredResult>({ ttlSeconds: 60, sweepIntervalMs: 0 });
  const results = new ResultService({
    cache,
    invokers: new InvokerSet({ remote: invoker }),
    log: pino({ level: 'silent' }),
    publish: (room, event) => events.push({ room, event }),
  });
  const shown = async (room: string) => ((await results.roomState(room)) as { params?: { n?: number } } | null)?.params?.n;
  const resultsOf = (room: string) =>
    events.filter((e) => e.room === room && e.event.event === 'result').map((e) => (e.event.data as { params: { n: number } }).params.n);
  return { invoker, results, shown, resultsOf };
}

describe('the latest thing asked of a room', () => {
  it('keeps the newer entry when an older computation of the room ends after it', async () => {
    const { invoker, results, shown, resultsOf } = setUp();
    const older = results.compute({ entry, values: { n: 7 }, roomId: 'r' });
    const newer = results.compute({ entry, values: { n: 8 }, roomId: 'r' });
    await invoker.end(8);
    expect(((await newer) as unknown as { n: number }).n).toBe(8);
    await invoker.end(7);
    // The older one's asker still gets its answer; the room and its followers stay on 8.
    expect(((await older) as unknown as { n: number }).n).toBe(7);
    expect(await shown('r')).toBe(8);
    expect(resultsOf('r')).toEqual([8]);
  });

  it('writes a computation when nothing was asked after it, and waits for the newer one when something was', async () => {
    const { invoker, results, shown, resultsOf } = setUp();
    const alone = results.compute({ entry, values: { n: 6 }, roomId: 'r' });
    await invoker.end(6);
    await alone;
    expect(await shown('r')).toBe(6);
    const older = results.compute({ entry, values: { n: 7 }, roomId: 'r' });
    const newer = results.compute({ entry, values: { n: 8 }, roomId: 'r' });
    await invoker.end(7);
    await older;
    // 8 was asked after 7: the room goes from 6 straight to 8.
    expect(await shown('r')).toBe(6);
    await invoker.end(8);
    await newer;
    expect(await shown('r')).toBe(8);
    expect(resultsOf('r')).toEqual([6, 8]);
  });

  it('counts a hit asked while a computation runs, and leaves other rooms alone', async () => {
    const { invoker, results, shown, resultsOf } = setUp();
    const first = results.compute({ entry, values: { n: 5 }, roomId: 'r' });
    await invoker.end(5);
    await first;
    const pending = results.compute({ entry, values: { n: 6 }, roomId: 'r' });
    const elsewhere = results.compute({ entry, values: { n: 9 }, roomId: 'other' });
    // The room's own entry asked again while 6 computes: the room has moved on from 6.
    await results.compute({ entry, values: { n: 5 }, roomId: 'r' });
    await invoker.end(6);
    await invoker.end(9);
    await Promise.all([pending, elsewhere]);
    expect(await shown('r')).toBe(5);
    expect(resultsOf('r')).toEqual([5]);
    expect(await shown('other')).toBe(9);
  });

  it("does not count a follower's echo of the room's entry as asked, so a peer's newer value still lands", async () => {
    const { invoker, results, shown, resultsOf } = setUp();
    const seven = results.compute({ entry, values: { n: 7 }, roomId: 'r' });
    await invoker.end(7);
    await seven;
    // A peer asks 8; a follower told `result` for 7 reads 7 while 8 computes: a hit, but an echo.
    const eight = results.compute({ entry, values: { n: 8 }, roomId: 'r' });
    expect(((await results.compute({ entry, values: { n: 7 }, roomId: 'r', echo: true })) as unknown as { n: number }).n).toBe(7);
    await invoker.end(8);
    await eight;
    expect(await shown('r')).toBe(8);
    expect(resultsOf('r')).toEqual([7, 8]);
  });

  it('does not count an input computed for a computation of the room as asked after it', async () => {
    const { invoker, results, shown } = setUp();
    const outer = results.compute({ entry, values: { n: 2 }, roomId: 'r' });
    const input = results.compute({ entry, values: { n: 1 }, roomId: 'r', asInput: true });
    await invoker.end(1);
    await input;
    await invoker.end(2);
    await outer;
    expect(await shown('r')).toBe(2);
  });

  it("writes a job's result even when something was asked after it", async () => {
    const { invoker, results, shown } = setUp();
    const job = results.compute({ entry, values: { n: 3 }, roomId: 'r', job: { id: 'j1' } as never });
    const quick = results.compute({ entry, values: { n: 4 }, roomId: 'r' });
    await invoker.end(4);
    await quick;
    await invoker.end(3);
    await job;
    expect(await shown('r')).toBe(3);
  });
});
