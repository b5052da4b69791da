/**
 * Volumes with time and channels as pure modules: the axes checks, the step a delivery names
 * in its one spelling, the ranges kept with a result, and the client reading which step an
 * answer is from the envelope the host writes.
 */
import { describe, expect, it } from 'vitest';
import { fromEnvelope } from '../../core/client/read-data-response.ts';
import { selectStep } from '../../core/delivery/select-step.ts';
import { stepDelivery } from '../../core/delivery/volume-step.ts';
import { decodeEnvelope } from '../../core/envelope/decode-envelope.ts';
import { normalizeResult } from '../../core/results/normalize-result.ts';
import type { StoredResult } from '../../core/results/stored-result.ts';
import { AxesFieldError, checkAxesFields } from '../../core/results/volume-axes.ts';
import { encodeStoredVolume } from '../../core/results/volume-envelope.ts';

type StoredVolume = Extract<StoredResult, { type: 'volume' }>;

/** A 2-step vector field of 1 × 1 × 2 voxels: step t, component k, voxel i holds values[t][k][i]. */
function field(): StoredVolume {
  const values = [
    [[1, -2], [0, 2], [2, 1]],
    [[0, 0], [3, 0], [-4, 0]],
  ];
  return normalizeResult(
    { axes: 'tczyx', shape: [2, 3, 1, 1, 2], dtype: 'float32', data: Float32Array.from(values.flat(2)), vector: true },
    'volume',
  ) as StoredVolume;
}

describe('axes fields', () => {
  const refused: [string, Record<string, unknown>, number[], string][] = [
    ['axes of another length', { axes: 'czyx' }, [2, 3, 4, 5, 6], 'axes'],
    ['four dimensions without axes', {}, [2, 3, 4, 5], 'axes'],
    ['spacing of five values', { axes: 'tczyx', spacing: [1, 1, 1, 1, 1] }, [2, 3, 4, 5, 6], 'spacing'],
    ['a window with lo above hi', { axes: 'czyx', channels: [{ window: [5, 1] }, {}] }, [2, 4, 5, 6], 'channels'],
    ['a time step of 0', { axes: 'tzyx', time_step: 0 }, [2, 4, 5, 6], 'time_step'],
    ['a vector of 2 components', { axes: 'czyx', vector: true }, [2, 4, 5, 6], 'vector'],
  ];
  for (const [what, raw, shape, field] of refused) {
    it(`refuses ${what}, naming ${field}`, () => {
      expect(() => checkAxesFields(raw, shape)).toThrow(AxesFieldError);
      try {
        checkAxesFields(raw, shape);
      } catch (error) {
        expect((error as AxesFieldError).field).toBe(field);
      }
    });
  }

  it('reads five dimensions as tczyx, and space only as before', () => {
    expect(checkAxesFields({}, [2, 3, 4, 5, 6])).toEqual({ axes: 'tczyx' });
    expect(checkAxesFields({ axes: 'zyx' }, [4, 5, 6])).toEqual({});
    expect(checkAxesFields({ axes: 'czyx', channels: ['a', { name: 'b', color: '#AbCdEf' }] }, [2, 4, 5, 6])).toEqual({
      axes: 'czyx',
      channels: [{ name: 'a' }, { name: 'b', color: '#abcdef' }],
    });
  });
});

describe('steps', () => {
  it('keeps each channel range over every step and the largest magnitude', () => {
    const volume = field();
    expect(volume.channelRanges).toEqual([[-2, 1], [0, 3], [-4, 2]]);
    expect(volume.valueRange).toEqual([-4, 3]);
    expect(volume.magnitudeMax).toBe(5);
  });

  it('writes the step a delivery names in one spelling, and refuses one the result lacks', () => {
    const volume = field();
    expect(stepDelivery(volume, { t: 0, c: 0, dtype: 'uint8' })).toEqual({ dtype: 'uint8' });
    expect(stepDelivery(volume, { t: 1, c: 'rgb' })).toEqual({ t: 1, c: 'rgb' });
    expect(() => stepDelivery(volume, { t: 2 })).toThrow(/'t' is 2/);
    expect(() => stepDelivery(volume, { c: 3 })).toThrow(/'c' is 3/);
  });

  it('maps direction colours from [-m, m] and says which step a client reads', () => {
    const { step } = selectStep(field(), { t: 1, c: 'rgb' });
    // Step 1: (0, 3, -4) and (0, 0, 0), m = 5.
    expect(Array.from(step.data)).toEqual([128, 204, 26, 128, 128, 128]);
    const read = fromEnvelope(decodeEnvelope(Buffer.concat(encodeStoredVolume(step).parts)));
    expect(read).toMatchObject({
      shape: [1, 1, 2, 3],
      dtype: 'uint8',
      value_range: [-5, 5],
      vector: true,
      step: { t: 1, c: 'rgb', sizes: { t: 2, c: 3, z: 1, y: 1, x: 2 } },
    });
  });
});
