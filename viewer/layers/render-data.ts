/**
 * @module render-data
 * The kind dispatch: the stage content for a decoded result, drawn by its layer kind: a lit
 * mesh, points, volume slices (a segmentation's in label colours, when the result or its
 * layer says it is one), an image plane, or a loaded file (`.xyz` text as points). One step
 * of a volume with time or channels is drawn with its time and channel controls
 * (volume/stepped-volume.ts) when the caller can fetch others. It sits with the kinds, above
 * the stage machinery, which knows no kind: a new kind is a folder here and a case below.
 * A mesh or a segmentation whose result has levels of detail, when the caller hands them over,
 * is drawn from them (mesh/lod-surfaces.ts): the mesh as its octree of fragments, the
 * segmentation with its segments' surfaces.
 */
import type { SpecimenData } from '../../core/wire/decoded-types.ts';
import { formatCount } from '../dom.ts';
import { createFileObject } from './file/file-object.ts';
import { createImagePlane } from './image/image-plane.ts';
import { createMeshObject } from './mesh/mesh-object.ts';
import { parseXyz } from './points/parse-xyz.ts';
import { createPointsObject } from './points/points-object.ts';
import { createLabelsVolume } from './labels/labels-volume.ts';
import { withSurfaces } from './labels/labels-surfaces.ts';
import { surfacesContent, type LodSource } from './mesh/lod-shared.ts';
import { DEFAULT_MESH_COLOUR } from '../../core/wire/layer-defaults.ts';
import * as THREE from 'three';
import type { Stage } from '../stage/stage.ts';
import type { StageContent } from '../stage/stage-content.ts';
import { VolumeSlices } from './volume/volume-slices.ts';
import { statsOf, type Stat } from '../stage/stats-view.ts';
import type { FetchStep } from '../time/step-cache.ts';
import { isStep, SteppedVolume } from './volume/stepped-volume.ts';

export interface Rendered {
  /** null when the data cannot be drawn (an unknown file type). */
  content: StageContent | null;
  /** Controls for the stage's tool area (volume slices). */
  panel?: HTMLElement;
  /** Facts only known after parsing (file meshes). */
  stats?: Stat[];
}

/** What the specimen (or its layer) says about how to draw it. */
export interface RenderLook {
  /** Meshes' colour (mesh-colour.ts); null for the default look. */
  meshColour: THREE.Color | null;
  /** The layer's kind, when a room's scene names it (`labels` draws a volume as a segmentation). */
  kind?: string;
  /** Fetches another step of a volume with time or channels (its `/data` with `t` and `c`). */
  steps?: FetchStep;
  /** The result's levels of detail, when it has them: drawn from them (a mesh's data is then not read). */
  levels?: LodSource;
}

/** A large mesh's surface from its levels, in the layer's mesh colour. */
export function meshFromLevels(stage: Stage, levels: LodSource, colour: THREE.Color | null): StageContent {
  const drawn = colour ?? new THREE.Color().setStyle(DEFAULT_MESH_COLOUR, THREE.SRGBColorSpace);
  return surfacesContent(stage, levels, { colour: () => drawn });
}

export async function renderData(stage: Stage, data: SpecimenData, look: RenderLook = { meshColour: null }): Promise<Rendered> {
  switch (data.type) {
    case 'mesh':
      return { content: look.levels ? meshFromLevels(stage, look.levels, look.meshColour) : createMeshObject(data, look.meshColour) };
    case 'point_cloud': {
      const content = createPointsObject(data, () => stage.invalidate());
      return { content, panel: content.panel };
    }
    case 'image':
      return { content: createImagePlane(data) };
    case 'volume': {
      const volumeStage = { link: stage.slices, depth: stage.depth.uniforms, changed: () => stage.invalidate() };
      const labels = data.labels === true || look.kind === 'labels';
      const stepped = !labels && look.steps !== undefined && isStep(data);
      const content = labels
        ? look.levels
          ? withSurfaces(stage, look.levels, createLabelsVolume(data, volumeStage), {
              resultColors: data.label_colors,
              names: data.label_names,
            })
          : createLabelsVolume(data, volumeStage)
        : stepped
          ? new SteppedVolume(data, look.steps!, volumeStage)
          : new VolumeSlices(data, volumeStage);
      return { content, panel: content.panel };
    }
    case 'file': {
      // A plain-text point cloud is drawn like a computed one, with the same colour controls.
      if (/\.xyz$/i.test(data.fileName)) {
        const cloud = parseXyz(new TextDecoder().decode(data.bytes));
        const rendered = await renderData(stage, cloud);
        return { ...rendered, stats: statsOf(cloud) };
      }
      const content = await createFileObject(data, look.meshColour);
      if (!content) return { content: null };
      const counts = (['vertices', 'triangles', 'points'] as const).filter((key) => content.stats[key]);
      return { content, stats: counts.map((key): Stat => ({ key, label: key, value: formatCount(content.stats[key]) })) };
    }
  }
}
