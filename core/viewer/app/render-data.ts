/**
 * @module render-data
 * Chooses the stage content for a decoded result: a lit mesh, points, volume slices, an image
 * plane, or a loaded file.
 */
import type { SpecimenData } from '../../client/decoded-types.ts';
import { formatCount } from './dom.ts';
import { createFileObject } from './stage/file-object.ts';
import { createImagePlane } from './stage/image-plane.ts';
import { createMeshObject } from './stage/mesh-object.ts';
import { createPointsObject } from './stage/points-object.ts';
import type { Stage, StageContent } from './stage/stage.ts';
import { attachValueReadout } from './stage/value-readout.ts';
import { createVolumeSlices } from './stage/volume-slices.ts';
import type { Stat } from './stats-view.ts';

export interface Rendered {
  /** null when the data cannot be drawn (an unknown file type). */
  content: StageContent | null;
  /** Controls for the stage's tool area (volume slices). */
  panel?: HTMLElement;
  /** Facts only known after parsing (file meshes). */
  stats: Stat[];
}

export async function renderData(stage: Stage, data: SpecimenData): Promise<Rendered> {
  switch (data.type) {
    case 'mesh':
      return { content: createMeshObject(data), stats: [] };
    case 'point_cloud':
      return { content: createPointsObject(data), stats: [] };
    case 'image':
      return { content: createImagePlane(data), stats: [] };
    case 'volume': {
      const content = createVolumeSlices(data, () => stage.invalidate());
      const readout = attachValueReadout(stage, content);
      content.panel.append(readout.element);
      const dispose = content.dispose;
      content.dispose = () => {
        readout.dispose();
        dispose();
      };
      return { content, panel: content.panel, stats: [] };
    }
    case 'file': {
      const content = await createFileObject(data);
      if (!content) return { content: null, stats: [] };
      const stats: Stat[] = [];
      if (content.stats.vertices) stats.push({ key: 'vertices', label: 'vertices', value: formatCount(content.stats.vertices) });
      if (content.stats.triangles) stats.push({ key: 'triangles', label: 'triangles', value: formatCount(content.stats.triangles) });
      if (content.stats.points) stats.push({ key: 'points', label: 'points', value: formatCount(content.stats.points) });
      return { content, stats };
    }
  }
}
