import { describe, expect, it } from 'vitest';
import { PayloadFill } from '../../core/results/payload-fill.ts';

describe('PayloadFill', () => {
  it('wakes readers once the bytes they wait for are written, front to back', async () => {
    const fill = new PayloadFill(8);
    const woken: number[] = [];
    const first = fill.until(3).then(() => woken.push(3));
    const all = fill.until(8).then(() => woken.push(8));
    fill.write(Uint8Array.of(1, 2));
    await Promise.resolve();
    expect(woken).toEqual([]);
    fill.write(Uint8Array.of(3, 4, 5));
    await first;
    expect(woken).toEqual([3]);
    expect(fill.filled).toBe(5);
    expect(fill.complete).toBe(false);
    fill.write(Uint8Array.of(6, 7, 8));
    await all;
    expect(woken).toEqual([3, 8]);
    expect([...fill.bytes]).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    await expect(fill.until(8)).resolves.toBeUndefined();
  });

  it('fails every waiting and later reader when the transfer breaks off', async () => {
    const fill = new PayloadFill(4);
    fill.write(Uint8Array.of(9));
    const waiting = fill.until(4);
    fill.fail(new Error('worker w1 disconnected'));
    await expect(waiting).rejects.toThrow('worker w1 disconnected');
    await expect(fill.until(2)).rejects.toThrow('worker w1 disconnected');
    // Bytes already in stay readable.
    await expect(fill.until(1)).resolves.toBeUndefined();
  });

  it('counts bytes put in place by someone else (a socket read) as written, and wakes their readers', async () => {
    const fill = new PayloadFill(6);
    fill.write(Uint8Array.of(1, 2));
    const waiting = fill.until(5);
    fill.bytes.set([3, 4, 5], fill.filled);
    fill.advance(3);
    await waiting;
    expect(fill.filled).toBe(5);
    fill.write(Uint8Array.of(6));
    expect(fill.complete).toBe(true);
    expect([...fill.bytes]).toEqual([1, 2, 3, 4, 5, 6]);
  });
});
