/**
 * @module parse-xyz
 * A plain-text point cloud (`.xyz`): one point per line, `x y z` and optionally `r g b`
 * (bytes 0..255 when any is above 1, else 0..1) or a fourth column as a scalar. Separators
 * are spaces, tabs or commas; `#` comments and blank lines are skipped, as are lines that do
 * not start with three numbers.
 */
import type { PointCloudData } from '../../../core/wire/decoded-types.ts';

/** Parses `.xyz` text into a point cloud. */
export function parseXyz(text: string): PointCloudData {
  const points: number[] = [];
  const extra: number[][] = [];
  let columns = Infinity;
  for (const line of text.split('\n')) {
    const trimmed = line.trim();
    if (trimmed === '' || trimmed.startsWith('#')) continue;
    const values = trimmed.split(/[\s,]+/).map(Number);
    if (values.length < 3 || values.slice(0, 3).some((v) => !Number.isFinite(v))) continue;
    points.push(values[0]!, values[1]!, values[2]!);
    extra.push(values.slice(3));
    columns = Math.min(columns, values.length - 3);
  }
  const count = points.length / 3;
  let colors: Uint8Array | Float32Array | null = null;
  let scalars: Float32Array | null = null;
  if (count > 0 && columns >= 3) {
    const flat = extra.flatMap((row) => row.slice(0, 3));
    const bytes = flat.some((v) => v > 1);
    colors = bytes ? Uint8Array.from(flat, (v) => Math.max(0, Math.min(255, Math.round(v)))) : Float32Array.from(flat);
  } else if (count > 0 && columns >= 1) {
    scalars = Float32Array.from(extra, (row) => row[0]!);
  }
  return { type: 'point_cloud', points: Float32Array.from(points), colors, scalars };
}
