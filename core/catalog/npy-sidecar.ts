/**
 * @module npy-sidecar
 * The optional sidecar of a static `.npy` volume: `<stem>.json` beside it, holding the
 * voxel `spacing` and the `origin` (each a list of numbers, one per axis, in the array's axis
 * order), e.g. `{"spacing": [0.5, 0.5, 1.0], "origin": [0, 0, 0]}`, and for a segmentation
 * `"labels": true` with optional `label_names` and `label_colors` keyed by id. Other keys are
 * ignored.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { LabelFieldError, readLabelFields, type LabelFields } from '../results/label-fields.ts';
import { numberList } from './specimen-metadata.ts';
import { resolveInsideReal } from './safe-path.ts';

export interface VolumeGeometry {
  spacing: number[] | null;
  origin: number[] | null;
  /** A segmentation's fields (checked against the widest labels dtype; the file's own is checked when read). */
  labels: LabelFields | null;
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
  let text: string;
  try {
    text = await readFile(resolved, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT') problems.push(`sidecar '${path.posix.basename(relative)}' cannot be read (${code ?? 'error'}): ignored`);
    return none;
  }
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
  return {
    spacing: numberList(fields.spacing, 'spacing', problems),
    origin: numberList(fields.origin, 'origin', problems),
    labels: labelsOf(fields, path.posix.basename(relative), problems),
  };
}
