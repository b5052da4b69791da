/**
 * Setting a layer's result: the same result told again without its provenance or levels (as
 * the room's entry may tell it) keeps what the layer has, in either order; a new result
 * replaces it; a stale or failed mark goes; an edited labels layer's version is replaced neither
 * by an older version nor by its base computed again.
 */
import { describe, expect, it } from 'vitest';
import { setLayerResult, setLayerStale } from '../../core/scenes/scene-ops.ts';
import type { LayerResult, RoomScene } from '../../core/wire/scene-types.ts';

const source = { function: 'ring', params: {} };
const provenance = { plugin: 'shapes', version: '1.0.0', bundle: 'b'.repeat(64), function: 'ring', params: {}, host: '0.1.0' };
const made: LayerResult = { result_id: 'a'.repeat(64), type: 'mesh', data_url: '/x', levels: true, provenance };
const scene = (result?: LayerResult): RoomScene => ({ version: 1, active: 'l', layers: [{ id: 'l', kind: 'mesh', source, ...(result ? { result } : {}) }] });

describe('a layer result set', () => {
  it('keeps the provenance and levels of the same result told without them', () => {
    const { provenance: _p, levels: _l, ...bare } = made;
    // The layer's own run first, then the room's entry: nothing changes.
    expect(setLayerResult('l', source, bare)(scene(made))).toBeNull();
    // The entry first, then the run: the run's fields are set.
    expect(setLayerResult('l', source, made)(scene(bare))?.layers[0]?.result).toEqual(made);
    const other = { ...bare, result_id: 'c'.repeat(64) };
    expect(setLayerResult('l', source, other)(scene(made))?.layers[0]?.result).toEqual(other);
  });

  it('ends a stale mark', () => {
    const stale = setLayerStale('l', source, { code: 'SPC_ERR_PARAM_INVALID', detail: 'no' })(scene(made))!;
    expect(stale.layers[0]?.stale).toEqual({ code: 'SPC_ERR_PARAM_INVALID', detail: 'no' });
    expect(setLayerResult('l', source, made)(stale)?.layers[0]).not.toHaveProperty('stale');
  });

  it('marks a layer without a result failed, and a result set ends it', () => {
    const failed = setLayerStale('l', source, { code: 'SPC_ERR_REMOTE_UNAVAILABLE', detail: 'down' })(scene())!;
    expect(failed.layers[0]).toMatchObject({ failed: { code: 'SPC_ERR_REMOTE_UNAVAILABLE', detail: 'down' } });
    expect(failed.layers[0]).not.toHaveProperty('stale');
    expect(setLayerStale('l', source, { code: 'SPC_ERR_REMOTE_UNAVAILABLE', detail: 'down' })(failed)).toBeNull();
    expect(setLayerResult('l', source, made)(failed)?.layers[0]).not.toHaveProperty('failed');
  });

  it("keeps an edited version against an older one and against its base computed again", () => {
    const base: LayerResult = { ...made, type: 'volume' };
    const version = (id: string, edits: number[]): LayerResult => ({
      result_id: id,
      type: 'volume',
      data_url: '/v',
      provenance: { ...provenance, base_result: base.result_id, edits },
    });
    const [one, two] = [version('d'.repeat(64), [3]), version('e'.repeat(64), [3, 4])];
    expect(setLayerResult('l', source, base)(scene(two))).toBeNull();
    expect(setLayerResult('l', source, one)(scene(two))).toBeNull();
    expect(setLayerResult('l', source, two)(scene(one))?.layers[0]?.result).toEqual(two);
    // Another result (new parameters computed) replaces the version.
    const other = { ...base, result_id: 'f'.repeat(64) };
    expect(setLayerResult('l', source, other)(scene(two))?.layers[0]?.result).toEqual(other);
  });
});
