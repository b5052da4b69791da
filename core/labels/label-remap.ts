/**
 * @module label-remap
 * Label ids renumbered to fit a narrower integer type (a headset's uint8): when the largest id
 * fits, nothing changes; otherwise the ids present in the whole volume, in ascending order,
 * become 1, 2, 3, ... (wrapping back to 1 after the type's largest value, so ids far apart in
 * rank may share a number), 0 staying the background. The numbering depends on the volume
 * alone, so every delivery of a result (any size, any host) numbers its ids the same way, and
 * a volume with at most 255 segments keeps one number per segment whatever its ids were.
 * Names and colours follow their ids (where two ids meet, the smaller's wins).
 */
import type { LabelFields } from '../results/label-fields.ts';

/** Ids up to this are looked up in a table indexed by id; larger ones through a map. */
const TABLE_MAX = 1 << 24;

/** The ids present in `data` (non-zero), ascending, and the largest. */
function presentIds(data: ArrayLike<number>): { ids: number[]; top: number } {
  let top = 0;
  for (let i = 0; i < data.length; i++) if (data[i]! > top) top = data[i]!;
  if (top <= TABLE_MAX) {
    const seen = new Uint8Array(top + 1);
    for (let i = 0; i < data.length; i++) seen[data[i]!] = 1;
    const ids: number[] = [];
    for (let id = 1; id <= top; id++) if (seen[id]) ids.push(id);
    return { ids, top };
  }
  const set = new Set<number>();
  for (let i = 0; i < data.length; i++) if (data[i]) set.add(data[i]!);
  return { ids: [...set].sort((a, b) => a - b), top };
}

/** How ids of a volume map onto 0..`max`: null when they already fit. */
export interface LabelRenumbering {
  /** The new id of an old one (0 for 0). */
  of(id: number): number;
}

/** The renumbering of the ids of `data` into 1..`max` (null when its largest id is at most `max`). */
export function renumberingOf(data: ArrayLike<number>, max: number): LabelRenumbering | null {
  const { ids, top } = presentIds(data);
  if (top <= max) return null;
  const next = (rank: number): number => (rank % max) + 1;
  if (top <= TABLE_MAX) {
    const table = new Uint32Array(top + 1);
    ids.forEach((id, rank) => (table[id] = next(rank)));
    return { of: (id) => table[id]! };
  }
  const map = new Map(ids.map((id, rank) => [id, next(rank)]));
  return { of: (id) => map.get(id) ?? 0 };
}

/** Writes the renumbered `values` into `out`. */
export function renumber(values: ArrayLike<number>, renumbering: LabelRenumbering, out: { [i: number]: number }): void {
  let last = -1;
  let mapped = 0;
  for (let i = 0; i < values.length; i++) {
    const id = values[i]!;
    // Runs of one id are the rule in a segmentation: look each run up once.
    if (id !== last) {
      last = id;
      mapped = renumbering.of(id);
    }
    out[i] = mapped;
  }
}

/** Names and colours keyed by the new ids (the smaller old id's entry where two meet). */
export function renumberedFields(fields: LabelFields, renumbering: LabelRenumbering | null): LabelFields {
  if (!renumbering) return fields;
  const rekey = (table: Record<string, string> | undefined): Record<string, string> | undefined => {
    if (!table) return undefined;
    const out: Record<string, string> = {};
    for (const [id, value] of Object.entries(table)) {
      const key = String(Number(id) === 0 ? 0 : renumbering.of(Number(id)));
      // Ids absent from the volume have no new number: their entries go.
      if (key !== '0' || id === '0') out[key] ??= value;
    }
    return out;
  };
  const names = rekey(fields.label_names);
  const colors = rekey(fields.label_colors);
  return { labels: true, ...(names ? { label_names: names } : {}), ...(colors ? { label_colors: colors } : {}) };
}
