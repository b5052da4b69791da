/**
 * A volume's length unit travels with it: the envelope the host writes says it (a whole
 * volume and one step of a volume with time), and the client reads it back.
 */
import { describe, expect, it } from 'vitest';
import { fromEnvelope } from '../../core/client/read-data-response.ts';
import { selectStep } from '../../core/delivery/select-step.ts';
import { decodeEnvelope } from '../../core/envelope/decode-envelope.ts';
import { normalizeResult } from '../../core/results/normalize-result.ts';
import type { StoredResult } from '../../core/results/stored-result.ts';
import { encodeStoredVolume } from '../../core/results/volume-envelope.ts';

type StoredVolume = Extract<StoredResult, { type: 'volume' }>;

const read = (volume: StoredVolume) => fromEnvelope(decodeEnvelope(Buffer.concat(encodeStoredVolume(volume).parts)));

describe('a volume unit', () => {
  it('is in the envelope of a whole volume, and the client reads it', () => {
    const volume = normalizeResult(
      { shape: [1, 2, 2], dtype: 'uint8', data: Uint8Array.of(1, 2, 3, 4), spacing: [0.5, 0.25, 0.25], unit: 'micrometer' },
      'volume',
    ) as StoredVolume;
    expect(read(volume)).toMatchObject({ spacing: [0.5, 0.25, 0.25], unit: 'micrometer' });
  });

  it('is in the envelope of one step of a time-lapse', () => {
    const volume = normalizeResult(
      { axes: 'tzyx', shape: [2, 1, 1, 2], dtype: 'float32', data: Float32Array.of(1, 2, 3, 4), time_unit: 'second', unit: 'nanometer' },
      'volume',
    ) as StoredVolume;
    expect(read(selectStep(volume, { t: 1 }).step)).toMatchObject({ unit: 'nanometer', time_unit: 'second', step: { t: 1 } });
  });

  it('is absent when the volume names none', () => {
    const volume = normalizeResult({ shape: [1, 1, 1], dtype: 'uint8', data: Uint8Array.of(7) }, 'volume') as StoredVolume;
    expect(read(volume)).not.toHaveProperty('unit');
  });
});
