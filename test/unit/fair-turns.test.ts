import { describe, expect, it } from 'vitest';
import { FairTurns } from '../../core/delivery/fair-turns.ts';

const flush = () => new Promise((resolve) => setImmediate(resolve));

/** Work that ends when told to, noting when it started. */
function gate(order: string[], name: string): { work: () => Promise<string>; open: () => void } {
  let open: () => void = () => {};
  const done = new Promise<void>((resolve) => (open = resolve));
  return {
    work: async () => {
      order.push(name);
      await done;
      return name;
    },
    open: () => open(),
  };
}

describe('FairTurns', () => {
  it('serves waiting clients round-robin, the one served longest ago first', async () => {
    const turns = new FairTurns(1);
    const order: string[] = [];
    const gates = new Map<string, () => void>();
    const results: Promise<string>[] = [];
    const ask = (client: string, name: string) => {
      const g = gate(order, name);
      gates.set(name, g.open);
      results.push(turns.run(client, g.work));
    };
    for (let i = 0; i < 4; i++) ask('a', `a${i}`);
    for (let i = 0; i < 4; i++) ask('b', `b${i}`);
    ask('c', 'c0');
    expect(turns.busy).toBe(1);
    expect(turns.waiting).toBe(8);
    // One piece at a time: end the one running, and the next turn starts.
    for (let done = 0; done < 9; done++) {
      await flush();
      expect(order).toHaveLength(done + 1);
      gates.get(order.at(-1)!)!();
    }
    expect(await Promise.all(results)).toHaveLength(9);
    // a was just served: b and c (never served) go first, then a and b take turns.
    expect(order).toEqual(['a0', 'b0', 'c0', 'a1', 'b1', 'a2', 'b2', 'a3', 'b3']);
    expect(turns.busy).toBe(0);
    expect(turns.waiting).toBe(0);
  });

  it('a client arriving beside two busy ones waits for the work running, not for their queues', async () => {
    const turns = new FairTurns(1);
    const order: string[] = [];
    const gates = new Map<string, () => void>();
    const ask = (client: string, name: string) => {
      const g = gate(order, name);
      gates.set(name, g.open);
      return turns.run(client, g.work);
    };
    const all = [];
    for (let i = 0; i < 5; i++) all.push(ask('a', `a${i}`), ask('b', `b${i}`));
    for (let done = 0; done < 4; done++) {
      await flush();
      gates.get(order.at(-1)!)!();
    }
    await flush();
    expect(order).toEqual(['a0', 'b0', 'a1', 'b1', 'a2']);
    all.push(ask('c', 'c0'));
    gates.get('a2')!();
    await flush();
    expect(order.at(-1)).toBe('c0');
    // c0, then the six left of a and b.
    for (let done = 0; done < 6; done++) {
      gates.get(order.at(-1)!)!();
      await flush();
    }
    expect(await Promise.all(all)).toHaveLength(11);
    expect(order.slice(6)).toEqual(['b2', 'a3', 'b3', 'a4', 'b4']);
    expect(turns.remembered).toBe(3);
  });

  it('a failing piece of work fails its own caller and the next one still runs', async () => {
    const turns = new FairTurns(1);
    const failing = turns.run('a', () => Promise.reject(new Error('no')));
    const next = turns.run('b', () => Promise.resolve('ok'));
    await expect(failing).rejects.toThrow('no');
    expect(await next).toBe('ok');
  });
});
