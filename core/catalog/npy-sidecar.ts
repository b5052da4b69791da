/**
 * @module npy-sidecar
 * The optional sidecar of a static `.npy` volume: `<stem>.json` beside it, holding the
 * voxel `spacing` and the `origin` (each a list of numbers, one per spatial axis, in the
 * array's axis order), e.g. `{"spacing": [0.5, 0.5, 1.0], "origin": [0, 0, 0]}`; for a
 * segmentation `"labels": true` with optional `label_names` and `label_colors` keyed by id;
 * and for a volume with time or channels its `axes`, `channels`, `time_step`, `time_unit`,
 * `vector` and length `unit` (checked against the array when it is read). Other keys are
 * ignored.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { LabelFieldError, readLabelFields, type LabelFields } from '../results/label-fields.ts';
import { numberList } from './specimen-metadata.ts';
import { resolveInsideReal } from './safe-path.ts';
import { AxesFieldError } from '../results/volume-axes.ts';
import { readVolumeFields, type VolumeFieldsInput } from '../results/volume-fields-input.ts';

export interface VolumeGeometry {
  spacing: number[] | null;
  origin: number[] | null;
  /** A segmentation's fields (checked against the widest labels dtype; the file's own is checked when read). */
  labels: LabelFields | null;
  /** Its time, channel and unit fields, when it has any. */
  described?: VolumeFieldsInput;
}

function labelsOf(fields: Record<string, unknown>, file: string, problems: string[]): LabelFields | null {
  try {
    return readLabelFields(fields, 'uint32') ?? null;
  } catch (error) {
    if (!(error instanceof LabelFieldError)) throw error;
    problems.push(`sidecar '${file}': ${error.message}: labels ignored`);
    return null;
  }
}

/** The time, channel and unit fields of a sidecar (a malformed one is a problem line, and left out). */
function describedOf(fields: Record<string, unknown>, name: string, problems: string[]): VolumeFieldsInput | undefined {
  try {
    const described = readVolumeFields(fields);
    return Object.keys(described).length > 0 ? described : undefined;
  } catch (error) {
    if (!(error instanceof AxesFieldError)) throw error;
    problems.push(`sidecar '${name}': ${error.message}: its time and channel fields are ignored`);
    return undefined;
  }
}

/** `vol.npy` → `vol.json`; `sub/vol.npy` → `sub/vol.json`. */
export function sidecarName(dataFile: string): string {
  const ext = path.posix.extname(dataFile);
  return `${dataFile.slice(0, dataFile.length - ext.length)}.json`;
}

/**
 * Reads the sidecar of `relativeDataFile` (relative to `realRoot`, already confined). A
 * missing sidecar is normal (nulls, no problem); an unreadable one is a problem.
 */
export async function readNpySidecar(realRoot: string, relativeDataFile: string, problems: string[]): Promise<VolumeGeometry> {
  const none: VolumeGeometry = { spacing: null, origin: null, labels: null };
  const relative = sidecarName(relativeDataFile);
  const resolved = await resolveInsideReal(realRoot, relative);
  if (resolved === null) return none;
  const text = await readFile(resolved, 'utf8').catch(({ code }: NodeJS.ErrnoException) => {
    if (code !== 'ENOENT') problems.push(`sidecar '${path.posix.basename(relative)}' cannot be read (${code ?? 'error'}): ignored`);
    return null;
  });
  if (text === null) return none;
  let raw: unknown;
  try {
    raw = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (error) {
    problems.push(`sidecar '${path.posix.basename(relative)}' is not valid JSON (${(error as Error).message}): ignored`);
    return none;
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    problems.push(`sidecar '${path.posix.basename(relative)}' must hold a JSON object: ignored`);
    return none;
  }
  const fields = raw as Record<string, unknown>;
  const described = describedOf(fields, path.posix.basename(relative), problems);
  return {
    spacing: numberList(fields.spacing, 'spacing', problems),
    origin: numberList(fields.origin, 'origin', problems),
    labels: labelsOf(fields, path.posix.basename(relative), problems),
    ...(described ? { described } : {}),
  };
}
