/**
 * @module chunk-reserve.test
 * The memory kept touched for edited chunks: the first ask is answered at once (new memory), the
 * helper thread then readies a reserve of that size, and what is handed out, from the reserve
 * or new, is always zero and of the size asked, never the same buffer twice.
 */
import { describe, expect, it } from 'vitest';
import { readyBuffers, reservedBuffer } from '../../core/edits/chunk-reserve.ts';
import { waitFor } from '../helpers/wait-for.ts';

describe('the chunk reserve', () => {
  it('readies touched buffers of each size asked and hands each out once, zero', async () => {
    const bytes = 3 * 4096 + 512;
    expect(readyBuffers(bytes)).toBe(0);
    const first = reservedBuffer(bytes);
    await waitFor(() => (readyBuffers(bytes) > 0 ? true : undefined), 'the helper readies buffers');
    const readied = readyBuffers(bytes);
    const seen = new Set<SharedArrayBuffer>([first]);
    for (let k = 0; k < 2 * readied; k++) {
      const buffer = reservedBuffer(bytes);
      expect(buffer.byteLength).toBe(bytes);
      expect(new Uint8Array(buffer).every((v) => v === 0)).toBe(true);
      expect(seen.has(buffer)).toBe(false);
      seen.add(buffer);
      // Written as a chunk would be: never handed out again.
      new Uint8Array(buffer).fill(7);
    }
    // Another size has a reserve of its own.
    expect(readyBuffers(2 * bytes)).toBe(0);
    expect(reservedBuffer(2 * bytes).byteLength).toBe(2 * bytes);
    await waitFor(() => (readyBuffers(2 * bytes) > 0 ? true : undefined), 'a reserve of the second size');
  });
});
