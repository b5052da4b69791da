/**
 * @module wire-labels
 * A segmentation's members as a reader finds them in an envelope preamble or typed result
 * JSON: `labels: true`, `label_names` and `label_colors` (objects keyed by label id). The host
 * checked them before sending; a reader takes them when they are well formed and otherwise
 * reads the volume as a plain one. Browser-safe: the viewer and every client decode with it.
 */

/** The label members of a decoded volume (all absent for a volume that is not labels). */
export interface WireLabels {
  labels?: true;
  label_names?: Record<string, string>;
  label_colors?: Record<string, string>;
}

function stringTable(value: unknown): Record<string, string> | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  return Object.values(value).every((v) => typeof v === 'string') ? (value as Record<string, string>) : undefined;
}

/** The label members of `source` (a preamble or a typed result's JSON). */
export function readWireLabels(source: Record<string, unknown>): WireLabels {
  if (source.labels !== true) return {};
  const names = stringTable(source.label_names);
  const colors = stringTable(source.label_colors);
  return { labels: true, ...(names ? { label_names: names } : {}), ...(colors ? { label_colors: colors } : {}) };
}
