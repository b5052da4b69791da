/**
 * @module remote-layer
 * A remote image added to a room from the page: published in place under an id made of the
 * room's name and the image's (as the notebook's `room.add_remote` makes it, so both name the
 * same image alike), then added as a specimen layer, a labels layer when the image is an NGFF
 * label image.
 */
import type { VitrineClient } from '../../core/client/client.ts';

/** The specimen id of `remote` (`NAME/path/to/cells.ome.zarr`) added to `room`: `room.cells`, safe characters only. */
export function remoteSpecimenId(room: string, remote: string): string {
  const base = remote.replace(/\/+$/, '').split('/').pop()!.replace('.ome.zarr', '').replace('.zarr', '');
  const id = `${room}.${base}`.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[-.]+|[-.]+$/g, '').slice(0, 128);
  return id || 'remote';
}

/** Publishes `remote` for `room` and adds it as a layer. */
export async function addRemoteLayer(client: VitrineClient, room: string, remote: string): Promise<void> {
  const id = remoteSpecimenId(room, remote);
  const published = await client.remotes().publish(id, remote);
  await client.scene(room).add({ source: { specimen: id, params: {} }, ...(published.labels ? { kind: 'labels' as const } : {}) });
}
