/**
 * @module in-place-layers
 * Which layers of a scene a viewer that reads Zarr by URL (Neuroglancer) can read in place: an
 * image or labels layer showing a remote specimen as it was published (no surface, no bound
 * parameters, its result, once there is one, the remote's level and not an edited version),
 * whose specimen is the whole image (from its finest level, of axes z, y, x only, so no
 * channel or time step to pick). Such a layer reads the image's own store through the host
 * (`/api/specimens/{id}/zarr/`, every level, only the chunks it shows) rather than the one level
 * the host read for the layer. Any other layer keeps its result's store.
 */
import type { RoomScene, SceneLayer } from '../wire/scene-types.ts';
import { remoteProvenance } from '../wire/provenance-types.ts';
import type { RemoteSpecimen } from './remote-specimen.ts';

function readsInPlace(layer: SceneLayer, specimen: RemoteSpecimen | undefined): specimen is RemoteSpecimen {
  if (!specimen || (layer.kind !== 'image' && layer.kind !== 'labels')) return false;
  const { source } = layer;
  if (source.segment !== undefined || source.bind || source.function || Object.keys(source.params ?? {}).length > 0) return false;
  if (layer.result && !remoteProvenance(layer.result.provenance)) return false;
  const { input, image } = specimen;
  return input.level === 0 && input.channel === null && input.t === null && image.axes === 'zyx';
}

/** The layers of `scene` read in place, by layer id: the path of their image's store under the host. */
export function inPlaceLayers(scene: RoomScene, specimen: (id: string) => RemoteSpecimen | undefined): Map<string, string> {
  const out = new Map<string, string>();
  for (const layer of scene.layers) {
    const id = layer.source.specimen;
    if (id !== undefined && readsInPlace(layer, specimen(id))) out.set(layer.id, `/api/specimens/${encodeURIComponent(id)}/zarr/`);
  }
  return out;
}
