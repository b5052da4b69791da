/**
 * @module routes-neuroglancer
 * `GET /api/rooms/{room_id}/neuroglancer`: a Neuroglancer viewer state of the room's scene, its
 * URLs absolute under the request's own scheme and `Host` (which the allowed-hosts guard
 * checked).
 */
import type { FastifyInstance } from 'fastify';
import { layersWithLevels } from '../../exports/neuroglancer-meshes.ts';
import { neuroglancerState, resultSegmentColors } from '../../exports/neuroglancer-state.ts';
import { resultPoints } from '../../exports/neuroglancer-geometry.ts';
import { roomUnit, scenePlace } from '../../exports/neuroglancer-frame.ts';
import { requestOrigin } from '../../exports/request-origin.ts';
import { inPlaceLayers } from '../../remote/in-place-layers.ts';
import type { HostContext } from '../../host-context.ts';
import type { MeshLods } from '../../meshes/mesh-lods.ts';
import type { AnnotationKind } from '../../wire/scene-types.ts';
import { roomOf } from '../request-input.ts';
import { ROOM_PARAMS, type RoomParams } from '../route-inputs.ts';

/** What the Neuroglancer route reads from its host. */
export type NeuroglancerRouteDeps = Pick<HostContext, 'scenes' | 'annotations' | 'options' | 'resultIds' | 'remotes'> & { meshes: MeshLods };

export async function neuroglancerRoutes(app: FastifyInstance, { ctx }: { ctx: NeuroglancerRouteDeps }): Promise<void> {
  app.get<RoomParams>(
    '/api/rooms/:room_id/neuroglancer',
    {
      schema: {
        summary: 'A room’s scene as a Neuroglancer viewer state',
        description:
          'Image and labels layers read the host’s OME-Zarr v0.5 stores (`zarr3://<absolute URL>/api/results/{result_id}.ome.zarr/`, Zarr v3 with sharding; ' +
          'a remote image published whole, ' +
          'its own store read in place through the host at every level, `zarr://<absolute URL>/api/specimens/{id}/zarr/`) with their window, colour map, ' +
          'opacity, ' +
          'visibility and segment colours (the page’s: the result’s `label_colors` or each id’s categorical colour, ' +
          'overridden per id by the layer’s `labels.colors`); ' +
          'each kind of the room’s annotations is an annotation layer (`precomputed://...`); a mesh layer is a single mesh ' +
          '(`<its data URL>?format=vtk|vtk:`, legacy ASCII VTK) in the page’s colour, or past `--mesh-lod-triangles` a segmentation layer of its ' +
          'levels of detail (`precomputed://<absolute URL>/api/results/{result_id}/meshes`, segment 1), which every labels layer reads beside its volume; ' +
          'a point layer an annotation layer of its points (at most 5000, picked evenly); ' +
          'meshes, points and marks are read in the room’s length unit (a source `transform`), so they lie on its volumes; ' +
          '`dimensions` name that unit, `projectionScale` frames the 3-D view on the scene and `position` puts the cross-sections ' +
          'through its middle (on a voxel centre of its first volume).',
        params: ROOM_PARAMS,
      },
    },
    async (request, reply) => {
      const roomId = roomOf(ctx, request.params.room_id);
      const [scene, marks] = await Promise.all([ctx.scenes.scene(roomId), ctx.annotations.list(roomId)]);
      const kinds = new Set<AnnotationKind>(marks.annotations.map((mark) => mark.kind));
      const find = (id: string) => ctx.resultIds.find(id, request.ip);
      const [colors, points, unit, place, lodMeshes] = await Promise.all([
        resultSegmentColors(scene, find),
        resultPoints(scene, find),
        roomUnit(scene, find),
        scenePlace(scene, find),
        layersWithLevels(scene, find, (result) => ctx.meshes.subject(result, '', request.ip).then((subject) => Array.from(subject.segments))),
      ]);
      const inPlace = inPlaceLayers(scene, (id) => ctx.remotes.specimen(id));
      const state = neuroglancerState(roomId, scene, kinds, requestOrigin(request), colors, points, unit, place, lodMeshes, inPlace);
      return reply.header('cache-control', 'no-cache').send(state);
    },
  );
}
