/**
 * @module remote-record
 * A specimen published from a remote as the catalog lists it: a static volume whose data is
 * read in place when something needs it. A room's layer (and its picture and snapshots) reads
 * it through the remote reader directly; a function given it as an input gets the finest
 * level within `--max-remote-bytes`, handed over as a `.npy` file as a relayed specimen is, and
 * says which (its remote, path and level) in its canonical value, so in its provenance.
 * Publishing and removing one (the route and the MCP tool both) go through here.
 */
import type { SpecimenRecord } from '../catalog/specimen-record.ts';
import { encodeNpy } from '../formats/npy/encode-npy.ts';
import type { RemoteData, RemoteSpecimenInfo } from '../remote/remote-data.ts';
import { readRemotePublish } from '../remote/remote-publish-input.ts';
import type { SpecimenCatalog } from '../registry/specimen-catalog.ts';
import type { VolumeResult } from '../sdk/result-types.ts';

/** The catalog sources remote specimens are listed under: `remote:<id>`, one each. */
export const REMOTE_SOURCE = 'remote';

/** What publishing a remote image needs of the host. */
export interface RemotePublishDeps {
  remotes: RemoteData;
  catalog: Pick<SpecimenCatalog, 'setSource' | 'removeSource'>;
}

/** Publishes `body` (`{"remote": "NAME/path", ...}`) as specimen `id` and lists it; 400s name the field. */
export async function publishRemote(
  ctx: RemotePublishDeps,
  id: string,
  body: Record<string, unknown>,
): Promise<{ replaced: boolean; info: RemoteSpecimenInfo }> {
  const published = await ctx.remotes.publish(id, readRemotePublish(body));
  ctx.catalog.setSource(`${REMOTE_SOURCE}:${id}`, 'published', [remoteRecord(ctx.remotes, published.info)]);
  return published;
}

/** Removes the remote specimen `id`; false when there is none. */
export async function unpublishRemote(ctx: RemotePublishDeps, id: string): Promise<boolean> {
  if (!(await ctx.remotes.remove(id))) return false;
  ctx.catalog.removeSource(`${REMOTE_SOURCE}:${id}`);
  return true;
}

/**
 * Lists what the remote specimens' store holds that this host does not yet (published on
 * another host of the service, or before a restart), and unlists what it no longer holds;
 * false while some could not be opened yet (their remote down): refresh again later.
 */
export async function refreshRemotes(ctx: RemotePublishDeps): Promise<boolean> {
  const { listed, gone, complete } = await ctx.remotes.refresh();
  for (const id of gone) ctx.catalog.removeSource(`${REMOTE_SOURCE}:${id}`);
  for (const info of listed) ctx.catalog.setSource(`${REMOTE_SOURCE}:${info.id}`, 'published', [remoteRecord(ctx.remotes, info)]);
  return complete;
}

/** The level a fetch of remote specimen `id` gives now, said as the remote, path and level; null once it is gone. */
function originNow(remotes: RemoteData, id: string): Record<string, unknown> | null {
  const specimen = remotes.specimen(id);
  return specimen ? { ...remotes.originOf(specimen, remotes.levelFor(specimen)) } : null;
}

export function remoteRecord(remotes: RemoteData, info: RemoteSpecimenInfo): SpecimenRecord {
  const fetchLevel = async (signal?: AbortSignal) => {
    const specimen = remotes.specimen(info.id);
    if (!specimen) throw new Error(`remote specimen '${info.id}' is no longer published`);
    const volume = await remotes.volume(specimen, remotes.levelFor(specimen), signal);
    const bytes = Buffer.from(encodeNpy(volume as VolumeResult));
    return { contentType: 'application/octet-stream', length: bytes.length, fileName: `${info.id}.npy`, body: bytes };
  };
  return {
    id: info.id,
    display_name: info.display_name,
    description: info.description,
    type: 'volume',
    tags: info.tags,
    is_dynamic: false,
    function_name: null,
    thumbnail_file: null,
    thumbnail: { kind: 'none' },
    story: null,
    origin: 'published',
    // Published for a room, it is that room's: listed with it, and read only by who may read it.
    ...(info.room !== undefined ? { room: info.room } : {}),
    // A function given it as an input says which level it got (the one a fetch gives now).
    data: { kind: 'remote', fetch: fetchLevel, origin: () => originNow(remotes, info.id) },
  } as SpecimenRecord;
}
