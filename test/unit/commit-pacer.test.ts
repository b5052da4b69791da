import { describe, expect, it } from 'vitest';
import { CommitPacer } from '../../core/durable/commit-pacer.ts';

describe('CommitPacer', () => {
  it('commits a write alone in place, never while a batched one is under way', async () => {
    const pacer = new CommitPacer({ now: () => 0 });
    expect(pacer.inPlace()).toBe(true);
    let finish = () => {};
    const batched = pacer.batched(new Promise<void>((resolve) => (finish = resolve)));
    expect(pacer.inPlace()).toBe(false);
    finish();
    await batched;
    expect(pacer.inPlace()).toBe(true);
    const failed = pacer.batched(Promise.reject(new Error('full')));
    expect(pacer.inPlace()).toBe(false);
    await expect(failed).rejects.toThrow('full');
    expect(pacer.inPlace()).toBe(true);
  });

  it('lets commits in place take a third of the loop, past a few milliseconds of credit', () => {
    let now = 0;
    const pacer = new CommitPacer({ now: () => now });
    // Writes back to back, each commit 3 ms, a third of it paid back while it runs: 2, 4 ms owed
    // before the second and third.
    const commit = () => pacer.timed(() => void (now += 3));
    const inPlace: boolean[] = [];
    for (let i = 0; i < 3; i++) {
      const may = pacer.inPlace();
      inPlace.push(may);
      if (may) commit();
    }
    expect(inPlace).toEqual([true, true, false]);
    // 4 ms owed, 3 allowed: paid back at a third of the time that passes (3.5, then 2.5).
    now += 1.5;
    expect(pacer.inPlace()).toBe(false);
    now += 3;
    expect(pacer.inPlace()).toBe(true);
    // One write every 1.8 ms holding the loop 0.6 ms stays in place for good.
    for (let i = 0; i < 1000; i++) {
      now += 1.2;
      expect(pacer.inPlace()).toBe(true);
      pacer.timed(() => void (now += 0.6));
    }
  });

  it('batches every write for a minute after one flush in place was slow', () => {
    let now = 0;
    const pacer = new CommitPacer({ now: () => now });
    expect(pacer.inPlace()).toBe(true);
    expect(pacer.timed(() => ((now += 80), 'kept'))).toBe('kept');
    now += 59_000;
    expect(pacer.inPlace()).toBe(false);
    now += 1_100;
    expect(pacer.inPlace()).toBe(true);
  });

  it('counts a commit that throws', () => {
    let now = 0;
    const pacer = new CommitPacer({ now: () => now });
    expect(() =>
      pacer.timed(() => {
        now += 6;
        throw new Error('map full');
      }),
    ).toThrow('map full');
    expect(pacer.inPlace()).toBe(false);
  });

  it('batches every write while the store has no room to spare, and asks only when the rest allows', () => {
    let now = 0;
    let roomy = false;
    let asked = 0;
    const pacer = new CommitPacer({ now: () => now, roomy: () => (asked++, roomy) });
    expect(pacer.inPlace()).toBe(false);
    roomy = true;
    expect(pacer.inPlace()).toBe(true);
    expect(asked).toBe(2);
    pacer.timed(() => void (now += 80));
    expect(pacer.inPlace()).toBe(false);
    expect(asked).toBe(2);
  });
});
