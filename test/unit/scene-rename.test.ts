/**
 * A layer's source renamed when its arrays are copied into another room: the specimen it shows
 * and every specimen its function's inputs name (at any depth) take the new id; the rest stays.
 */
import { describe, expect, it } from 'vitest';
import { renameSpecimens } from '../../core/scenes/scene-names.ts';

describe('renameSpecimens', () => {
  const names = new Map([['rep.scan', 'rep-b.scan']]);

  it('renames the specimen a layer shows', () => {
    expect(renameSpecimens({ specimen: 'rep.scan', params: { t: 1 }, segment: 2 }, names)).toEqual({ specimen: 'rep-b.scan', params: { t: 1 }, segment: 2 });
  });

  it("renames the specimens its function's inputs name, nested, and leaves others alone", () => {
    const source = {
      function: 'isosurface',
      params: { volume: { specimen: 'rep.scan', params: { inner: { specimen: 'rep.scan' } } }, other: { specimen: 'ct-head' }, level: 0.5 },
    };
    expect(renameSpecimens(source, names)).toEqual({
      function: 'isosurface',
      params: { volume: { specimen: 'rep-b.scan', params: { inner: { specimen: 'rep-b.scan' } } }, other: { specimen: 'ct-head' }, level: 0.5 },
    });
    expect(source.params.volume.specimen).toBe('rep.scan');
  });
});
