/**
 * The room-cache access line names a layer's cache slot as its room and layer, never as the
 * slot's NUL-padded id.
 */
import type { FastifyBaseLogger } from 'fastify';
import { describe, expect, it } from 'vitest';
import { layerSlot } from '../../core/events/layer-slots.ts';
import { logCacheAccess } from '../../core/serving/result-source.ts';

function recorder(): { log: FastifyBaseLogger; lines: [Record<string, unknown>, string][] } {
  const lines: [Record<string, unknown>, string][] = [];
  const log = { isLevelEnabled: () => true, info: (fields: Record<string, unknown>, message: string) => lines.push([fields, message]) };
  return { log: log as unknown as FastifyBaseLogger, lines };
}

describe('the cache access line', () => {
  it("names a layer's slot by its room and layer", () => {
    const { log, lines } = recorder();
    logCacheAccess(log, 'miss', layerSlot('dev', 'ball'), 'sphere', { radius: 1 });
    const [fields, message] = lines[0]!;
    expect(fields).toEqual({ cache: 'miss', room: 'dev', layer: 'ball', function: 'sphere', params: ['radius'] });
    expect(message).toBe('cache miss: room=dev layer=ball function=sphere params=[radius]');
    expect(JSON.stringify(lines)).not.toContain('\\u0000');
  });

  it('names a room as it is', () => {
    const { log, lines } = recorder();
    logCacheAccess(log, 'hit', 'lab', 'sphere', {});
    expect(lines[0]).toEqual([{ cache: 'hit', room: 'lab', function: 'sphere', params: [] }, 'cache hit: room=lab function=sphere params=[]']);
  });
});
