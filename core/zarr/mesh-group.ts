/**
 * @module mesh-group
 * The `zarr.json` of a segmentation store's `meshes` group, as OME-NGFF's mesh proposal writes
 * it (ome/ngff#33, RFC-8: a Zarr v3 node of type `external` whose `ome.mesh` names the format,
 * `neuroglancer_multilod_draco`, and the labels it was made from, here the store itself).
 */

export function meshGroup(): object {
  return {
    zarr_format: 3,
    node_type: 'external',
    attributes: { ome: { version: '0.5', mesh: { version: '0.1', type: 'neuroglancer_multilod_draco', source: { labels: '../' } } } },
  };
}
