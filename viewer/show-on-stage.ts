/**
 * @module show-on-stage
 * Puts a loaded specimen on the page: its stats, then (with WebGL) its content on the stage's
 * active layer in its mesh colour (drawn as the kind the room's scene gives that layer), the
 * room's look applied and its tools beside it (room/viewer-room.ts), or why it cannot be shown.
 */
import { SRGBColorSpace } from 'three';
import type { SpecimenData } from '../core/wire/decoded-types.ts';
import type { SpecimenMetadata } from '../core/wire/wire-types.ts';
import type { Layout } from './layout.ts';
import type { ParamPanel } from './panels/params/param-panel.ts';
import { renderData } from './layers/render-data.ts';
import { meshColourOf } from './layers/mesh/mesh-colour.ts';
import type { Stage } from './stage/stage.ts';
import type { FetchStep } from './time/step-cache.ts';
import type { StageOverlay } from './stage/stage-overlay.ts';
import { statsOf, type StatsView } from './stage/stats-view.ts';
import type { ViewerRoom } from './room/viewer-room.ts';
import type { LodSource } from './layers/mesh/lod-shared.ts';

/** The parts of the page a shown specimen goes into. */
export interface StageParts {
  stage: Stage | null;
  layout: Layout;
  stats: StatsView;
  overlay: StageOverlay;
  panel: ParamPanel | null;
  /** The room side: the shown content takes the room's look and layer, and its panel goes to the tool area. */
  rooms: ViewerRoom;
  /** Why there is no WebGL, when there is none. */
  webglProblem: string | null;
  /** The specimen's thumbnail, whose colour a mesh takes when it declares none (null for a function). */
  thumbnailUrl: string | null;
  /** Fetches another step of a volume with time or channels (absent: only the step given is drawn). */
  steps?: FetchStep;
  /** The result's levels of detail, when it has them (a large mesh, a segmentation): drawn from them. */
  levels?: LodSource;
}

/** Shows `data` of `meta` unless the request is no longer current; `refined` keeps the camera. */
export async function showOnStage(
  parts: StageParts,
  data: SpecimenData,
  meta: SpecimenMetadata,
  isCurrent: () => boolean,
  refined: boolean,
): Promise<void> {
  const { stage, layout } = parts;
  parts.panel?.setHostError(null);
  // A static file the host shaped arrives as a decoded result: its file name is still a fact worth showing.
  const file =
    data.type !== 'file' && !meta.is_dynamic && typeof meta.data_file === 'string'
      ? [{ key: 'file', label: 'file', value: meta.data_file }]
      : [];
  const stats = [...statsOf(data), ...file];
  layout.stagePane.dataset.shown = data.type;
  if (!stage) {
    parts.stats.show(stats);
    parts.overlay.noWebGL(parts.webglProblem);
    return;
  }
  const meshColour = data.type === 'mesh' || data.type === 'file' ? await meshColourOf(meta.color, parts.thumbnailUrl) : null;
  const { steps, levels } = parts;
  const rendered = await renderData(stage, data, { meshColour, kind: parts.rooms.scene?.activeKind(), steps, levels });
  layout.stagePane.dataset.meshColour = meshColour ? `#${meshColour.getHexString(SRGBColorSpace)}` : '';
  if (!isCurrent()) {
    rendered.content?.dispose();
    return;
  }
  stage.show(rendered.content, refined);
  parts.rooms.shown(rendered.content, rendered.panel ?? null);
  parts.stats.show([...stats, ...(rendered.stats ?? [])]);
  if (rendered.content) parts.overlay.clear();
  else parts.overlay.noPreview(data.type === 'file' ? data.contentType : data.type, layout.dataLink.getAttribute('href') ?? '#');
}
