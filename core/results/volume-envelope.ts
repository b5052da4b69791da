/**
 * @module volume-envelope
 * The envelope of a stored volume: its preamble completed with what a client needs of its
 * time and channels. A delivered step says which step it is (`t`, `c`), the sizes of every
 * axis of the whole (`sizes`: `{"t": 301, "c": 3, "z": 20, "y": 100, "x": 100}`) and the whole's
 * `channels`, `time_step`, `time_unit` and `vector`, so the first answer is enough to build a
 * time slider and a channel list; a whole volume with time or channels says its `axes`.
 */
import { encodeVolumeEnvelope, type EnvelopeParts } from '../envelope/encode-envelope.ts';
import type { StoredVolume } from './stored-result.ts';
import { AXES_FIELD_NAMES } from './volume-axes.ts';

/** The preamble fields of a volume's time and channels (none for a volume of space only). */
export function axesPreamble(volume: StoredVolume): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  if (volume.step) {
    const { t, c, sizes, ...described } = volume.step;
    Object.assign(fields, { t, c, sizes }, described);
  } else {
    for (const name of AXES_FIELD_NAMES) if (volume[name] !== undefined) fields[name] = volume[name];
  }
  return fields;
}

export function encodeStoredVolume(volume: StoredVolume): EnvelopeParts {
  return encodeVolumeEnvelope(volume, volume.valueRange, axesPreamble(volume));
}
