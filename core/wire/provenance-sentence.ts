/**
 * @module provenance-sentence
 * What made a result in one line a reader can cite, as every figure and page says it: the
 * picture's PNG text, the Neuroglancer state, a layer row's tooltip in the viewer. Pure, so
 * the browser bundles share it.
 */
import type { LayerProvenance } from './provenance-types.ts';
import { stableJson } from './stable-json.ts';

/**
 * `mri({"size":64}) by brain@1.2.0 (bundle 0123456789ab), vitrine 0.1.0`; a published array's:
 * `lab.scan (sha256 0123456789ab) published by ada with vitrine-python/0.1.0 from segment.py at
 * 2026-11-26T10:00:00.000Z, vitrine 0.1.0`; a remote image's: `lab/cells.ome.zarr level 1 (32×64×64) read
 * in place, vitrine 0.1.0`.
 */
export function provenanceSentence(provenance: LayerProvenance): string {
  return `${madeSentence(provenance)}${editedSentence(provenance)}`;
}

/** What made the result itself (an edited layer's version: its base). */
function madeSentence(provenance: LayerProvenance): string {
  if ('published' in provenance) {
    const { specimen, sha256, user, client, source, published_at } = provenance.published;
    const made = `${client ? ` with ${client}` : ''}${source ? ` from ${source}` : ''}`;
    return `${specimen} (sha256 ${sha256.slice(0, 12)}) published by ${user}${made} at ${published_at}, vitrine ${provenance.host}`;
  }
  if ('remote' in provenance) {
    const { name, path, level_path, shape } = provenance.remote;
    return `${name}/${path} level ${level_path} (${shape.join('×')}) read in place, vitrine ${provenance.host}`;
  }
  if (!('function' in provenance)) return `result ${provenance.base_result.slice(0, 12)}`;
  const call = `${provenance.function}(${stableJson(provenance.params)})`;
  const by = provenance.plugin ? ` by ${provenance.plugin}@${provenance.version ?? '0.0.0'}` : '';
  const bundle = provenance.bundle ? ` (bundle ${provenance.bundle.slice(0, 12)})` : '';
  return `${call}${by}${bundle}, vitrine ${provenance.host}`;
}

/** `; edited over result 0123456789ab by edits 3, 5`: an edited layer's version, its base and edits by log seq. */
function editedSentence(provenance: LayerProvenance): string {
  const { base_result: base, edits } = provenance;
  if (base === undefined || edits === undefined) return '';
  const shown = edits.length > 12 ? `${edits.slice(0, 12).join(', ')} and ${edits.length - 12} more` : edits.join(', ');
  return `; edited over result ${base.slice(0, 12)} by edit${edits.length === 1 ? '' : 's'} ${shown}`;
}
