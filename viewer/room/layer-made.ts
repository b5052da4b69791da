/**
 * @module layer-made
 * What made a layer, as its row says it: the plugin and version of its result
 * (`shapes 1.0.0`), the whole record in the row's tooltip (the call with its parameters, the
 * bundle, vitrine's version, whether the layer is pinned to its version or follows the newest).
 * What a row offers about versions is version-offers.ts.
 */
import { provenanceSentence } from '../../core/wire/provenance-sentence.ts';
import type { SceneLayer } from '../../core/wire/scene-types.ts';

/** What a row shows of the code behind its layer. */
export interface LayerMade {
  /** `shapes 1.0.0`, or the function's name for code that came from no plugin. */
  label: string;
  /** The whole record, one line a reader can cite (as the picture and the Neuroglancer state say it). */
  title: string;
  /** The plugin, when the result came from one, and the version that made the result. */
  plugin: string | null;
  version: string | null;
  /** The version the layer is pinned to (absent: it follows the newest). */
  pinned: string | null;
}

/** What made `layer`'s result; null while it has none (not computed yet, or a static file). */
export function layerMade(layer: SceneLayer): LayerMade | null {
  const shown = layer.result?.provenance;
  if (!shown) return null;
  const pinned = layer.source.version ?? null;
  // A published array: who published it, with what and from what, in the tooltip.
  if ('published' in shown) {
    return { label: shown.published.source ?? 'published', title: provenanceSentence(shown), plugin: null, version: null, pinned };
  }
  // A version of an edited layer over a file: its base and edits, nothing made it.
  if (!('function' in shown)) return { label: 'edited', title: provenanceSentence(shown), plugin: null, version: null, pinned };
  const made = shown;
  const label = made.plugin ? `${made.plugin} ${made.version ?? ''}`.trim() : `${made.function}()`;
  const follows = made.plugin ? (pinned ? `; pinned to ${pinned}` : '; follows the newest version') : '';
  const title = `${provenanceSentence(made)}${follows}`;
  return { label, title, plugin: made.plugin, version: made.version, pinned };
}
