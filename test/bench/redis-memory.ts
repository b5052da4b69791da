/**
 * @module redis-memory
 * What a Redis server holds, two ways: `used_memory` as INFO reports it (buffers and the
 * allocator's slack included), and the bytes of its keys alone, which follow what is stored.
 */
import type { Redis } from 'ioredis';

export async function usedMemory(client: Redis): Promise<number> {
  return Number(/used_memory:(\d+)/.exec(await client.info('memory'))![1]);
}

/**
 * The bytes Redis holds for its keys (`MEMORY USAGE` of each, counted in full): unlike
 * used_memory, it does not move with buffers and the allocator, so growth per result is exact.
 */
export async function keyBytes(client: Redis): Promise<{ keys: number; bytes: number }> {
  let cursor = '0';
  let keys = 0;
  let bytes = 0;
  do {
    const [next, batch] = await client.scan(cursor, 'COUNT', 1000);
    cursor = next;
    const pipeline = client.pipeline();
    for (const key of batch) pipeline.call('MEMORY', 'USAGE', key, 'SAMPLES', '0');
    for (const [, size] of (await pipeline.exec()) ?? []) bytes += Number(size ?? 0);
    keys += batch.length;
  } while (cursor !== '0');
  return { keys, bytes };
}
