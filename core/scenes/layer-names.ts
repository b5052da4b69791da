/**
 * @module layer-names
 * The name a layer takes when a request gives none: what it shows (its specimen or function),
 * and for a label's surface which segment, so a segmentation and the surfaces made of it read
 * as different rows in every list (`cells`, `cells segment 2`, `cells all segments`); a source
 * naming neither gives the layer's id.
 */
import type { LayerSource } from '../wire/scene-types.ts';

export function defaultLayerName(source: LayerSource, id: string): string {
  const base = source.specimen ?? source.function;
  if (base === undefined) return id;
  if (source.segment === undefined) return base;
  return source.segment === 'all' ? `${base} all segments` : `${base} segment ${source.segment}`;
}
