/**
 * The unit a mark's measurements read in: the unit of the result whose frame its points are in
 * (its layer's in the room's scene, else the room's entry), looked up once when found and asked
 * again while none is; a snapshot's frames from its own scene; and how a measurement reads with it.
 */
import { describe, expect, it } from 'vitest';
import { measurementOf } from '../../core/wire/mark-format.ts';
import { MarkUnits } from '../../viewer/layers/marks/mark-units.ts';

/** A host that answers these paths, counting what was read. */
function host(documents: Record<string, Record<string, unknown>>): { read: (path: string) => Promise<Record<string, unknown> | null>; reads: string[] } {
  const reads: string[] = [];
  return { reads, read: async (path) => (reads.push(path), documents[path] ?? null) };
}

/** Waits for the lookups under way: the reads answer at once, so every step is done when the microtasks are. */
const settled = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('mark units', () => {
  it('reads a layer’s unit from its result in the scene, once', async () => {
    const { read, reads } = host({
      '/api/rooms/lab/scene': { layers: [{ id: 'scan', result: { result_id: 'r1' } }, { id: 'mesh', result: { result_id: 'r2' } }] },
      '/api/results/r1': { type: 'volume', unit: 'um' },
      '/api/results/r2': { type: 'mesh' },
    });
    let resolved = 0;
    const units = new MarkUnits(() => resolved++, () => null, read);
    units.reset('lab');
    expect(units.unitOf('scan')).toBeNull();
    await settled();
    expect(resolved).toBe(1);
    expect(units.unitOf('scan')).toBe('um');
    expect(units.unitOf('scan')).toBe('um');
    expect(reads.filter((path) => path === '/api/results/r1')).toHaveLength(1);
    // A result that states no unit gives none, and is asked again next time (it may gain one).
    expect(units.unitOf('mesh')).toBeNull();
    await settled();
    expect(units.unitOf('mesh')).toBeNull();
    await settled();
    expect(reads.filter((path) => path === '/api/results/r2')).toHaveLength(2);
    expect(resolved).toBe(1);
  });

  it('reads the room frame’s unit from the room’s entry, and forgets it in another room', async () => {
    const { read } = host({ '/api/rooms/lab/entry': { result_id: 'r3' }, '/api/results/r3': { unit: 'mm' } });
    const units = new MarkUnits(() => undefined, () => 'r-shown', read);
    units.reset('lab');
    units.unitOf(undefined);
    await settled();
    expect(units.unitOf(undefined)).toBe('mm');
    units.reset('other');
    expect(units.unitOf(undefined)).toBeNull();
    await settled();
    expect(units.unitOf(undefined)).toBeNull();
  });

  it('reads the room frame’s unit from the shown result in a room without an entry, reading no data', async () => {
    const { read, reads } = host({ '/api/results/r4': { unit: 'nm' } });
    let shown: string | null = null;
    const units = new MarkUnits(() => undefined, () => shown, read);
    units.reset('lab');
    // The page's answer has not come yet: no unit, asked again once it has.
    expect(units.unitOf(undefined)).toBeNull();
    await settled();
    shown = 'r4';
    expect(units.unitOf(undefined)).toBeNull();
    await settled();
    expect(units.unitOf(undefined)).toBe('nm');
    expect(reads.every((path) => !path.includes('/data'))).toBe(true);
  });

  it('reads the frames of a snapshot shown read-only from its scene, not from the page’s room', async () => {
    const { read, reads } = host({
      '/api/rooms/rep-b/entry': { result_id: 'r-room' },
      '/api/rooms/rep-b/scene': { layers: [{ id: 'scan', result: { result_id: 'r-room' } }] },
      '/api/results/r-room': { unit: 'mm' },
      '/api/results/r-scan': { unit: 'micrometer' },
      '/api/results/r-ball': {},
    });
    const units = new MarkUnits(() => undefined, () => null, read);
    units.reset('rep-b');
    units.showScene({ layers: [{ id: 'ball', result: { result_id: 'r-ball' } }, { id: 'scan', result: { result_id: 'r-scan' } }], active: 'scan' });
    units.unitOf(undefined);
    units.unitOf('scan');
    units.unitOf('ball');
    await settled();
    expect(units.unitOf(undefined)).toBe('micrometer');
    expect(units.unitOf('scan')).toBe('micrometer');
    expect(units.unitOf('ball')).toBeNull();
    expect(reads.filter((path) => path.startsWith('/api/rooms/'))).toEqual([]);
  });

  it('writes a ruler’s length and a box’s volume with the unit, and bare without one', () => {
    expect(measurementOf({ length: 6.000001 }, 'um')).toBe('length 6 um');
    expect(measurementOf({ volume: 0.0570123 }, 'um')).toBe('volume 0.05701 um³');
    expect(measurementOf({ length: 12.5 }, null)).toBe('length 12.5');
    expect(measurementOf({}, 'um')).toBe('');
  });
});
