/**
 * @module labels-surfaces
 * A segmentation drawn with its segments' surfaces from their levels of detail
 * (mesh/lod-surfaces.ts), each surface in its label's colour as the slices colour it
 * (labels-volume.ts: the layer's colours, the result's, else the categorical one; with
 * `show: selected` only the selected ones). Its mode says what shows: `surface` the surfaces
 * alone, `volume` the ray-marched volume alone, `slices` (the default) the slices with the
 * surfaces, as Neuroglancer's 3-D view has them. The surfaces come first, alone, while the
 * volume is on its way; picking a surface names its segment as picking a voxel does, and a
 * labelled voxel of a slice under the pointer answers before any surface.
 */
import * as THREE from 'three';
import type { LayerDisplay, LayerLabels } from '../../../core/wire/scene-types.ts';
import type { RoomView } from '../../../core/wire/room-types.ts';
import type { StageContent } from '../../stage/stage-content.ts';
import { holdSurfaces, type LodSource } from '../mesh/lod-shared.ts';
import type { LodSurfaces } from '../mesh/lod-surfaces.ts';
import type { VolumeContent } from '../volume/volume-slices.ts';
import { labelColour, type LabelSources } from '../../../core/wire/label-colors.ts';

type LodStage = Parameters<typeof holdSurfaces>[0];

/** What a segmentation's surfaces are coloured and named by (the volume's, once it is in). */
export interface LabelsLook {
  resultColors?: Record<string, string>;
  names?: Record<string, string>;
}

/** A segment's colour as three.js takes it, or null when it is not drawn. */
function colourWith(sources: LabelSources): (id: number) => THREE.Color | null {
  return (id) => {
    const rgb = labelColour(id, sources);
    return rgb && new THREE.Color().setRGB(rgb[0] / 255, rgb[1] / 255, rgb[2] / 255, THREE.SRGBColorSpace);
  };
}

/** The layer's surfaces, held for one content, recoloured by its labels settings. */
function held(stage: LodStage, source: LodSource, look: LabelsLook) {
  const sources: LabelSources = { resultColors: look.resultColors, labels: {} };
  const hold = holdSurfaces(stage, source, { colour: colourWith(sources), label: (id) => look.names?.[String(id)] ?? null });
  const recolour = (labels: LayerLabels | undefined): void => {
    sources.labels = labels ?? {};
    hold.surfaces.recolour(colourWith(sources));
  };
  return { ...hold, recolour };
}

/** The surfaces alone: a segmentation shown in `surface` mode, or before its volume comes. */
export function labelSurfaces(stage: LodStage, source: LodSource, look: LabelsLook = {}): StageContent {
  const { surfaces, release, recolour } = held(stage, source, look);
  return { ...surfaces, applyDisplay: (display) => recolour(display.labels), dispose: release };
}

/** Shows the parts a mode shows. */
function showMode(mode: RoomView['mode'], volume: VolumeContent, surfaces: LodSurfaces): void {
  volume.object.visible = mode !== 'surface';
  surfaces.object.visible = mode !== 'volume';
}

/** `volume` (a segmentation's slices or ray-marched volume) with its surfaces. */
export function withSurfaces(stage: LodStage, source: LodSource, volume: VolumeContent, look: LabelsLook): VolumeContent {
  const { surfaces, release, recolour } = held(stage, source, look);
  const group = new THREE.Group();
  group.add(volume.object, surfaces.object);
  let mode: RoomView['mode'];
  const content: VolumeContent = {
    object: group,
    panel: volume.panel,
    applyView(view) {
      volume.applyView?.(view);
      if (view.mode) showMode((mode = view.mode), volume, surfaces);
    },
    applyDisplay(display: LayerDisplay) {
      volume.applyDisplay?.(display);
      recolour(display.labels);
      if (display.mode ?? mode) showMode(display.mode ?? mode, volume, surfaces);
    },
    applyLook(look) {
      volume.applyLook(look);
      surfaces.applyLook?.(look);
    },
    pick(ray, kept) {
      // A labelled voxel of a slice answers before the surfaces, even one in front of it: it says
      // the label, its name and where the voxel is, and the slice is what the pointer reads. A
      // surface answers where no labelled voxel lies under the pointer (or the slices are hidden).
      const onSlice = volume.object.visible ? volume.pick?.(ray, kept) : null;
      return onSlice ?? (surfaces.object.visible ? (surfaces.pick?.(ray, kept) ?? null) : null);
    },
    attach: () => volume.attach?.(),
    relabel: (next, box) => volume.relabel?.(next, box) ?? false,
    dispose() {
      volume.dispose();
      release();
    },
  };
  // The legend's selection recolours the surfaces too, then goes where the viewer sends it.
  volume.onDisplayChange = (change) => {
    if (change.labels) recolour(change.labels);
    content.onDisplayChange?.(change);
  };
  volume.onViewChange = (change) => content.onViewChange?.(change);
  return content;
}
