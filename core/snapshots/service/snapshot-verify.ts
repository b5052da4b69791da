/**
 * @module snapshot-verify
 * Whether a snapshot can be made again: each layer computed anew with the version it pinned,
 * in a cache slot of its own (no room's entry moves), and its result id compared with the one
 * recorded: `same`, `differs` (with both ids) or `unavailable` (its version is no longer kept,
 * or it cannot be computed here: a function, a specimen or an input this host lacks, named).
 * A layer made from a published array is checked by its bytes: the file this host publishes
 * under that id, read as a result, hashes to the one recorded or not. Whatever one layer lacks,
 * the others are still checked: nothing a layer names refuses the whole snapshot. A layer showing
 * an image read in place is checked by the remote's word: each key it read is asked again (a
 * HEAD), and any whose ETag (or Last-Modified) moved makes it `differs`, named.
 */
import { computedProvenance, remoteProvenance, type RemoteProvenance } from '../../wire/provenance-types.ts';
import type { RemoteKeyChange } from '../../remote/remote-data.ts';
import type { SceneLayer } from '../../wire/scene-types.ts';
import type { SnapshotDocument } from '../../wire/snapshot-types.ts';
import { layerSlot } from '../../events/layer-slots.ts';
import { createHostError, isHostError } from '../../errors.ts';
import { obtainLayerResult, resolveLayerSource, type LayerSourceDeps } from '../../scenes/service/layer-sources.ts';

export type LayerVerdict = 'same' | 'differs' | 'unavailable';

export interface LayerVerification {
  id: string;
  status: LayerVerdict;
  plugin: string | null;
  /** The version (a bundle id in a snapshot) the layer pinned, or null. */
  version: string | null;
  /** The result id the snapshot recorded. */
  result_id: string | null;
  /** The result id computed now, when it differs. */
  computed_result_id?: string;
  /** Why it is unavailable: what this host lacks, named. */
  detail?: string;
  /** The error code that said so. */
  code?: string;
  /** A remote image's layer: each key the remote gives another version of now (null: it no longer has it). */
  changed?: RemoteKeyChange[];
}

export interface SnapshotVerification {
  snapshot: string;
  layers: LayerVerification[];
}

/** A remote image's layer: `differs` once any key it read gives another version now, naming each. */
async function verifyRemote(sources: LayerSourceDeps, origin: RemoteProvenance['remote']): Promise<Pick<LayerVerification, 'status' | 'changed' | 'detail'>> {
  if (!sources.remotes) throw createHostError('SPC_ERR_REMOTE_NOT_ALLOWED', `${origin.name}/${origin.path}`, 'this host names no --remote');
  const changed = await sources.remotes.changed(origin);
  if (changed.length === 0) return { status: 'same' };
  const said = (v: string | null) => (v === null ? 'absent' : v === '' ? 'unversioned' : v);
  const shown = changed.slice(0, 5).map((c) => `'${c.key}' (${said(c.recorded)} → ${said(c.now)})`);
  const more = changed.length > 5 ? ` and ${changed.length - 5} more` : '';
  return { status: 'differs', changed, detail: `the remote '${origin.name}' changed since the snapshot read it: ${shown.join(', ')}${more}` };
}

async function verifyLayer(sources: LayerSourceDeps, room: string, layer: SceneLayer): Promise<LayerVerification> {
  const recorded = layer.result?.result_id ?? null;
  const plugin = computedProvenance(layer.result?.provenance)?.plugin ?? null;
  const base = { id: layer.id, plugin, version: layer.source.version ?? null, result_id: recorded };
  try {
    // An image read in place is the remote's bytes: the versions it read are asked again.
    const remote = remoteProvenance(layer.result?.provenance);
    if (remote) return { ...base, ...(await verifyRemote(sources, remote.remote)) };
    const resolved = await resolveLayerSource(sources, room, layerSlot(room, layer.id), layer.source, `layers.${layer.id}`);
    // A file no parser reads is shown as it lies: nothing is computed, nothing can differ.
    if (resolved.kind === 'file') return { ...base, status: 'same' };
    const { resultId } = await obtainLayerResult(sources, resolved);
    return resultId === recorded ? { ...base, status: 'same' } : { ...base, status: 'differs', computed_result_id: resultId };
  } catch (error) {
    // What a host refuses for one layer (a specimen or input it lacks, a version gone, a function
    // failing) is that layer's answer; anything else is the host's own fault.
    if (!isHostError(error)) throw error;
    return { ...base, status: 'unavailable', detail: error.message, code: error.code };
  }
}

/** Verifies snapshot `id` whose document is `doc`. */
export async function verifySnapshot(sources: LayerSourceDeps, id: string, doc: SnapshotDocument): Promise<SnapshotVerification> {
  const room = `verify-${id.slice(0, 16)}`;
  return { snapshot: id, layers: await Promise.all(doc.scene.layers.map((layer) => verifyLayer(sources, room, layer))) };
}
