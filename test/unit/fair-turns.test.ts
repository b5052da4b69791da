import { describe, expect, it } from 'vitest';
import { FairTurns } from '../../core/delivery/fair-turns.ts';

const flush = () => new Promise((resolve) => setImmediate(resolve));

/**
 * A FairTurns on a clock the test moves: each piece of work, once started, is ended by
 * `finishRunning(ms)`, which moves the clock by what it cost.
 */
function harness() {
  let clock = 0;
  const turns = new FairTurns(1, () => clock);
  const order: string[] = [];
  const ends = new Map<string, () => void>();
  const results: Promise<string>[] = [];
  const ask = (client: string, name: string) => {
    let end: () => void = () => {};
    const done = new Promise<void>((resolve) => (end = resolve));
    ends.set(name, end);
    const result = turns.run(client, async () => {
      order.push(name);
      await done;
      return name;
    });
    results.push(result);
    return result;
  };
  const finishRunning = async (ms: number) => {
    await flush();
    clock += ms;
    ends.get(order.at(-1)!)!();
    await flush();
  };
  return { turns, order, ask, finishRunning, results };
}

describe('FairTurns', () => {
  it('serves waiting clients by turns, the one that used the thread least first', async () => {
    const { turns, order, ask, finishRunning, results } = harness();
    for (let i = 0; i < 4; i++) ask('a', `a${i}`);
    for (let i = 0; i < 4; i++) ask('b', `b${i}`);
    ask('c', 'c0');
    expect(turns.busy).toBe(1);
    expect(turns.waiting).toBe(8);
    for (let done = 0; done < 9; done++) await finishRunning(10);
    expect(await Promise.all(results)).toHaveLength(9);
    // a was served first: b and c go next, then a and b take turns.
    expect(order).toEqual(['a0', 'b0', 'c0', 'a1', 'b1', 'a2', 'b2', 'a3', 'b3']);
    expect(turns.busy).toBe(0);
    expect(turns.waiting).toBe(0);
  });

  it('a client asking for a small variant beside busy ones waits for the work running, at each of its steps', async () => {
    const { order, ask, finishRunning, results } = harness();
    for (let i = 0; i < 5; i++) {
      ask('a', `a${i}`);
      ask('b', `b${i}`);
      ask('d', `d${i}`);
    }
    for (let done = 0; done < 4; done++) await finishRunning(1000);
    expect(order).toEqual(['a0', 'b0', 'd0', 'b1', 'd1']);
    // The bystander's shape, then (once it is made) its encoding: each right after the running piece.
    const shape = ask('c', 'c-shape');
    await finishRunning(1000);
    expect(order.at(-1)).toBe('c-shape');
    await finishRunning(5);
    await shape;
    ask('c', 'c-encode');
    await finishRunning(1000);
    expect(order.at(-1)).toBe('c-encode');
    while (order.length < 17) await finishRunning(1000);
    await finishRunning(1000);
    expect(await Promise.all(results)).toHaveLength(17);
  });

  it('a client back after a long time saves no credit: it takes turns with the busy ones', async () => {
    const { order, ask, finishRunning } = harness();
    ask('a', 'a0');
    await finishRunning(10);
    // b runs alone for a long time; a returns and gets one turn, then they alternate.
    for (let i = 0; i < 6; i++) ask('b', `b${i}`);
    await finishRunning(1000);
    for (let i = 1; i < 4; i++) ask('a', `a${i}`);
    for (let done = 0; done < 8; done++) await finishRunning(1000);
    expect(order).toEqual(['a0', 'b0', 'b1', 'a1', 'b2', 'a2', 'b3', 'a3', 'b4', 'b5']);
  });

  it('a failing piece of work fails its own caller and the next one still runs', async () => {
    const turns = new FairTurns(1);
    const failing = turns.run('a', () => Promise.reject(new Error('no')));
    const next = turns.run('b', () => Promise.resolve('ok'));
    await expect(failing).rejects.toThrow('no');
    expect(await next).toBe('ok');
  });

  it('a small piece takes the lane at once while large ones hold the other slot; the lane takes small work only', async () => {
    const turns = new FairTurns(1, () => 0, 1);
    const ends: (() => void)[] = [];
    const started: string[] = [];
    const piece = (name: string) => () =>
      new Promise<string>((resolve) => {
        started.push(name);
        ends.push(() => resolve(name));
      });
    const large = [0, 1, 2].map((i) => turns.run(`busy-${i}`, piece(`large-${i}`)));
    expect(started).toEqual(['large-0']);
    // The lane does not take large work.
    expect(turns.busy).toBe(1);
    const small = turns.run('bystander', piece('small'), true);
    expect(started).toEqual(['large-0', 'small']);
    // A second small piece waits for the lane (or a general slot), by turns.
    const second = turns.run('other', piece('small-2'), true);
    expect(started).toHaveLength(2);
    ends[1]!();
    expect(await small).toBe('small');
    await new Promise((resolve) => setImmediate(resolve));
    expect(started).toEqual(['large-0', 'small', 'small-2']);
    for (let i = 0; started.length < 5 || i < ends.length; i++) {
      ends[i]?.();
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(await Promise.all([...large, second])).toEqual(['large-0', 'large-1', 'large-2', 'small-2']);
  });
});
