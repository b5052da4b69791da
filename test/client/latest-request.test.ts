/**
 * The viewer's "latest request wins" rule (viewer/room/latest-request.ts): a newer request
 * aborts the older one, an older outcome is never delivered as current, and debounced
 * requests collapse into the last one.
 */
import { describe, expect, it } from 'vitest';
import { eitherSignal, LatestRequest, type RequestContext } from '../../viewer/room/latest-request.ts';

/** A request whose completion the test controls. */
function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

describe('LatestRequest', () => {
  it('aborts the previous request and marks it stale when a new one is scheduled', async () => {
    const latest = new LatestRequest();
    const contexts: RequestContext[] = [];
    const gates = [deferred(), deferred()];
    latest.schedule(async (c) => {
      contexts.push(c);
      await gates[0]!.promise;
    });
    latest.schedule(async (c) => {
      contexts.push(c);
      await gates[1]!.promise;
    });
    expect(contexts).toHaveLength(2);
    const [first, second] = contexts as [RequestContext, RequestContext];
    expect(first.signal.aborted).toBe(true);
    expect(first.isCurrent()).toBe(false);
    expect(second.signal.aborted).toBe(false);
    expect(second.isCurrent()).toBe(true);
    expect(second.seq).toBeGreaterThan(first.seq);
    gates.forEach((g) => g.resolve());
  });

  it('runs only the last of several debounced requests', async () => {
    const latest = new LatestRequest();
    const ran: number[] = [];
    const done = deferred();
    for (const value of [1, 2, 3]) {
      latest.schedule(async () => {
        ran.push(value);
        done.resolve();
      }, 20);
    }
    await done.promise;
    expect(ran).toEqual([3]);
  });

  it('abort() cancels the running request but keeps it current, so it can report the cancellation', () => {
    const latest = new LatestRequest();
    let context: RequestContext | undefined;
    latest.schedule(async (c) => {
      context = c;
    });
    latest.abort();
    expect(context?.signal.aborted).toBe(true);
    expect(context?.isCurrent()).toBe(true);
    latest.reset();
    expect(context?.isCurrent()).toBe(false);
  });
});

describe('eitherSignal', () => {
  it('aborts when the request or the part aborts, and is the request signal when there is no part', () => {
    const request = new AbortController();
    expect(eitherSignal(request.signal)).toBe(request.signal);
    const part = new AbortController();
    const byPart = eitherSignal(request.signal, part.signal);
    const byRequest = eitherSignal(request.signal, new AbortController().signal);
    part.abort();
    expect(byPart.aborted).toBe(true);
    expect(byRequest.aborted).toBe(false);
    request.abort();
    expect(byRequest.aborted).toBe(true);
    expect(eitherSignal(request.signal, new AbortController().signal).aborted).toBe(true);
  });
});
