/**
 * @module layer-ids
 * Layer ids the host makes when a request gives none: readable, from what the layer shows (its
 * specimen or function, `ct-phantom`, `ct-phantom-2`), and unique in the scene.
 */
import type { LayerSource } from '../wire/scene-types.ts';

/** A base long enough to read, short enough to leave room for a `-N` suffix. */
const MAX_BASE = 56;

export function makeLayerId(source: LayerSource, taken: ReadonlySet<string>): string {
  const named = (source.specimen ?? source.function ?? '').replace(/[^A-Za-z0-9_.-]+/g, '-').replace(/^-+|-+$/g, '');
  const base = named.slice(0, MAX_BASE) || 'layer';
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) {
    const id = `${base}-${n}`;
    if (!taken.has(id)) return id;
  }
}
