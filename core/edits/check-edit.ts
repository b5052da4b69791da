/**
 * @module check-edit
 * A client's edit checked field by field against the layer it edits: a known op, ids within
 * the layer's dtype, voxels inside its grid, the bounds of each list. A field that does not
 * check is a 400 naming its path (`seeds[1][0]`, `voxels[12]`). What needs the voxels (a
 * segment present, a seed inside its segment) is checked by the op itself.
 */
import { createHostError, type HostError } from '../errors.ts';
import { isRecord } from '../wire/json-object.ts';
import type { ClientEdit, MergeEdit, NamesEdit, PaintEdit, SplitEdit, Voxel } from '../wire/edit-types.ts';
import { DTYPE_MAX, type LabelVolume } from './label-volume.ts';

/** Bounds of an edit. */
export const EDIT_LIMITS = {
  mergeMin: 2,
  mergeMax: 1000,
  groupsMin: 2,
  groupsMax: 16,
  seedsMax: 64,
  radiusMax: 64,
  voxelsMax: 100_000,
  nameMax: 256,
} as const;

/** The grid and dtype an edit is checked against. */
export type EditGrid = Pick<LabelVolume, 'shape' | 'dtype'>;

export const invalid = (field: string, why: string): HostError => createHostError('SPC_ERR_EDIT_INVALID', field, why);

/** `value` as an id of the dtype (0 allowed when `zero`). */
export function idOf(value: unknown, field: string, grid: EditGrid, zero = false): number {
  const max = DTYPE_MAX[grid.dtype];
  if (typeof value !== 'number' || !Number.isInteger(value) || value < (zero ? 0 : 1))
    throw invalid(field, `must be a whole ${zero ? 'label from 0' : 'segment id from 1'}, got ${JSON.stringify(value) ?? 'nothing'}`);
  if (value > max) throw invalid(field, `is ${value}, past the largest id of the layer's dtype ${grid.dtype} (${max})`);
  return value;
}

/** `value` as a voxel [z, y, x] inside the grid. */
export function voxelOf(value: unknown, field: string, grid: EditGrid): Voxel {
  if (!Array.isArray(value) || value.length !== 3 || !value.every((v) => typeof v === 'number' && Number.isInteger(v)))
    throw invalid(field, 'must be a voxel [z, y, x] of three whole numbers');
  const [z, y, x] = value as Voxel;
  const [nz, ny, nx] = grid.shape;
  if (z < 0 || y < 0 || x < 0 || z >= nz || y >= ny || x >= nx)
    throw invalid(field, `[${z}, ${y}, ${x}] is outside the grid (z < ${nz}, y < ${ny}, x < ${nx})`);
  return [z, y, x];
}

function listOf(value: unknown, field: string, min: number, max: number, what: string): unknown[] {
  if (!Array.isArray(value)) throw invalid(field, `must be a list of ${min} to ${max} ${what}`);
  if (value.length < min || value.length > max) throw invalid(field, `holds ${value.length} ${what}: ${min} to ${max} are allowed`);
  return value;
}

function onlyFields(body: Record<string, unknown>, allowed: readonly string[]): void {
  const extra = Object.keys(body).find((key) => !allowed.includes(key));
  if (extra !== undefined) throw invalid(extra, `is not a field of a ${String(body.op)} edit (it takes ${allowed.join(', ')})`);
}

function checkMerge(body: Record<string, unknown>, grid: EditGrid): MergeEdit {
  onlyFields(body, ['op', 'segments']);
  const raw = listOf(body.segments, 'segments', EDIT_LIMITS.mergeMin, EDIT_LIMITS.mergeMax, 'segment ids');
  const seen = new Set<number>();
  const segments = raw.map((v, i) => {
    const id = idOf(v, `segments[${i}]`, grid);
    if (seen.has(id)) throw invalid(`segments[${i}]`, `repeats segment ${id}`);
    seen.add(id);
    return id;
  });
  return { op: 'merge', segments };
}

function checkSplit(body: Record<string, unknown>, grid: EditGrid): SplitEdit {
  onlyFields(body, ['op', 'segment', 'seeds']);
  const segment = idOf(body.segment, 'segment', grid);
  const groups = listOf(body.seeds, 'seeds', EDIT_LIMITS.groupsMin, EDIT_LIMITS.groupsMax, 'seed groups');
  const seeds = groups.map((group, g) =>
    listOf(group, `seeds[${g}]`, 1, EDIT_LIMITS.seedsMax, 'seed voxels').map((v, i) => voxelOf(v, `seeds[${g}][${i}]`, grid)),
  );
  return { op: 'split', segment, seeds };
}

function checkPaint(body: Record<string, unknown>, grid: EditGrid): PaintEdit {
  onlyFields(body, ['op', 'label', 'center', 'radius', 'voxels', 'only']);
  const label = idOf(body.label, 'label', grid, true);
  const only = body.only === undefined || body.only === null ? undefined : idOf(body.only, 'only', grid, true);
  const withOnly = only === undefined ? {} : { only };
  if (body.voxels !== undefined) {
    if (body.center !== undefined || body.radius !== undefined) throw invalid('voxels', 'is given instead of center and radius, not with them');
    const voxels = listOf(body.voxels, 'voxels', 1, EDIT_LIMITS.voxelsMax, 'voxels').map((v, i) => voxelOf(v, `voxels[${i}]`, grid));
    return { op: 'paint', label, voxels, ...withOnly };
  }
  if (body.center === undefined) throw invalid('center', 'is missing: a paint takes center and radius, or voxels');
  const center = voxelOf(body.center, 'center', grid);
  const radius = body.radius;
  if (typeof radius !== 'number' || !Number.isFinite(radius) || radius < 0 || radius > EDIT_LIMITS.radiusMax)
    throw invalid('radius', `must be a number of voxels from 0 to ${EDIT_LIMITS.radiusMax}, got ${JSON.stringify(radius) ?? 'nothing'}`);
  return { op: 'paint', label, center, radius, ...withOnly };
}

function tableOf(value: unknown, field: string, grid: EditGrid, check: (v: string, at: string) => void): Record<string, string | null> | undefined {
  if (value === undefined) return undefined;
  if (!isRecord(value)) throw invalid(field, 'must be an object of id → value (null removes the entry)');
  const table: Record<string, string | null> = {};
  for (const [key, v] of Object.entries(value)) {
    const at = `${field}.${key}`;
    if (!/^\d{1,10}$/.test(key)) throw invalid(at, 'is not a label id');
    idOf(Number(key), at, grid, true);
    if (v !== null) {
      if (typeof v !== 'string') throw invalid(at, 'must be a string, or null to remove it');
      check(v, at);
    }
    table[String(Number(key))] = v;
  }
  return table;
}

function checkNames(body: Record<string, unknown>, grid: EditGrid): NamesEdit {
  onlyFields(body, ['op', 'label_names', 'label_colors']);
  const label_names = tableOf(body.label_names, 'label_names', grid, (v, at) => {
    if (v.length > EDIT_LIMITS.nameMax) throw invalid(at, `is ${v.length} characters: at most ${EDIT_LIMITS.nameMax}`);
  });
  const label_colors = tableOf(body.label_colors, 'label_colors', grid, (v, at) => {
    if (!/^#[0-9a-fA-F]{6}$/.test(v)) throw invalid(at, `must be a colour #rrggbb, got '${v}'`);
  });
  if (!label_names && !label_colors) throw invalid('label_names', 'is missing: a names edit takes label_names, label_colors or both');
  return { op: 'names', ...(label_names ? { label_names } : {}), ...(label_colors ? { label_colors } : {}) };
}

const CHECKS: Record<ClientEdit['op'], (body: Record<string, unknown>, grid: EditGrid) => ClientEdit> = {
  merge: checkMerge,
  split: checkSplit,
  paint: checkPaint,
  names: checkNames,
};

/** The body of `POST .../edits` as an edit of a layer with `grid`. @throws SPC_ERR_EDIT_INVALID naming the field */
export function checkEdit(body: unknown, grid: EditGrid): ClientEdit {
  if (!isRecord(body)) throw invalid('body', 'must be one edit object, {"op": "merge" | "split" | "paint" | "names", ...}');
  const check = typeof body.op === 'string' && Object.hasOwn(CHECKS, body.op) ? CHECKS[body.op as ClientEdit['op']] : null;
  if (!check) throw invalid('op', `must be merge, split, paint or names, got ${JSON.stringify(body.op) ?? 'nothing'}`);
  return check(body, grid);
}
