/**
 * @module subject-run
 * One request of the page's subject, from "Computing…" to the stage: the room told what
 * this page asked for, the subject fetched as its plan says (subject-plan.ts, coarse first
 * where the type refines), each answer shown on the stage while the request is still the
 * newest, the job's end noted with its timing, and a failure shown with a Retry. An answer
 * shown puts its stats up, then (with WebGL) its content on the stage's active layer in its
 * mesh colour (drawn as the kind the room's scene gives that layer), the room's look applied
 * and its tools beside it (room/viewer-room.ts), or why it cannot be shown.
 */
import { SRGBColorSpace } from 'three';
import type { VitrineClient } from '../core/client/client.ts';
import type { SpecimenData } from '../core/wire/decoded-types.ts';
import type { DeliveryQuery } from '../core/wire/wire-types.ts';
import { loadCoarseFirst, showRefineNote } from './coarse-first.ts';
import type { Layout } from './layout.ts';
import { renderData } from './layers/render-data.ts';
import { meshColourOf } from './layers/mesh/mesh-colour.ts';
import type { JobView } from './panels/job-view.ts';
import type { ParamPanel } from './panels/params/param-panel.ts';
import { showFailure } from './panels/request-failure.ts';
import type { AdoptedBlob } from './room/room-blob.ts';
import type { RoomSubject } from './room/room-follower.ts';
import { subjectPlan, type SubjectAsk } from './room/subject-plan.ts';
import type { ViewerRoom } from './room/viewer-room.ts';
import type { Stage } from './stage/stage.ts';
import type { StageOverlay } from './stage/stage-overlay.ts';
import { statsOf, type StatsView } from './stage/stats-view.ts';
import type { VrMode } from './xr/vr-mode.ts';
import type { LodSource } from './layers/mesh/lod-shared.ts';

/** The page's parts one run reads and shows into. */
export interface SubjectRunParts {
  stage: Stage | null;
  layout: Layout;
  stats: StatsView;
  overlay: StageOverlay;
  panel: ParamPanel | null;
  /** The room side: the shown content takes the room's look and layer, and its panel goes to the tool area. */
  rooms: ViewerRoom;
  /** Why there is no WebGL, when there is none. */
  webglProblem: string | null;
  client: VitrineClient;
  job: JobView;
  vr: VrMode | null;
  adopted: AdoptedBlob;
  refine: HTMLElement;
  /** The subject is a function without a specimen (run as a job of its own). */
  isFunction: boolean;
  /** What the page shows, as a room entry names it. */
  shown(): RoomSubject | null;
  /** Asks again (the failure's Retry). */
  retry(): void;
}

/** The subject `ask` names, shown on the stage while it is the newest request. */
export async function runSubject(parts: SubjectRunParts, ask: SubjectAsk): Promise<void> {
  const { job, overlay, layout } = parts;
  const { context, meta, params } = ask;
  const follower = parts.rooms.follower;
  const started = performance.now();
  // The page's first picture waits for this subject's first showing on the stage.
  const pictured = parts.stage?.firstPicture.hold() ?? (() => {});
  let cached = false;
  if (meta.function_name) follower.sent(meta.function_name, params ?? {});
  job.begin();
  overlay.loading(meta.is_dynamic ? 'Computing…' : 'Loading data…');
  layout.stagePane.classList.add('busy');
  try {
    const plan = subjectPlan(
      {
        ...parts,
        follower,
        cached: () => (cached = true),
        show: (data, refined, levels) => showSubject(parts, data, ask, refined, levels).finally(pictured),
        surfacesOnly: () => parts.rooms.scene?.activeSurfaces() === true,
        activeLayerUrl: () => parts.rooms.scene?.activeLayerUrl() ?? null,
        answeredBy: (id) => id && context.isCurrent() && (layout.dataLink.dataset.resultId = id),
        refining: (on) => showRefineNote(parts.refine, layout.stagePane, on),
      },
      ask,
    );
    await loadCoarseFirst(plan.type, plan.fine, plan.steps);
    if (!context.isCurrent()) return;
    job.set(cached ? 'cached' : 'done', cached ? 'Served from the room cache.' : meta.is_dynamic ? 'Computed.' : 'Loaded.');
    job.setTiming(performance.now() - started);
  } catch (error) {
    if (!context.isCurrent()) return;
    showFailure(error, { job, overlay, panel: parts.panel, retry: parts.retry });
  } finally {
    pictured();
    if (meta.function_name) follower.settled(meta.function_name, params ?? {}, false);
    if (context.isCurrent()) layout.stagePane.classList.remove('busy');
  }
}

/**
 * One answer on the stage unless the request is no longer current; `refined` keeps the camera.
 * A volume with time or channels fetches its other steps with the same values; a mesh declaring
 * no colour takes its thumbnail's (none for a function).
 */
async function showSubject(
  parts: SubjectRunParts,
  data: SpecimenData,
  ask: SubjectAsk,
  refined: boolean,
  levels?: LodSource,
): Promise<void> {
  const { client, isFunction, stage, layout } = parts;
  const { context, meta, params, room } = ask;
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
  const thumbnailUrl = isFunction ? null : client.thumbnailUrl(meta.id);
  const meshColour = data.type === 'mesh' || data.type === 'file' ? await meshColourOf(meta.color, thumbnailUrl) : null;
  const steps = isFunction
    ? undefined
    : (delivery: DeliveryQuery, signal: AbortSignal) => client.getData(meta.id, { params, room, delivery, signal });
  const rendered = await renderData(stage, data, { meshColour, kind: parts.rooms.scene?.activeKind(), steps, levels });
  layout.stagePane.dataset.meshColour = meshColour ? `#${meshColour.getHexString(SRGBColorSpace)}` : '';
  if (!context.isCurrent()) {
    rendered.content?.dispose();
    return;
  }
  stage.show(rendered.content, refined);
  parts.rooms.shown(rendered.content, rendered.panel ?? null);
  parts.stats.show([...stats, ...(rendered.stats ?? [])]);
  if (rendered.content) parts.overlay.clear();
  else parts.overlay.noPreview(data.type === 'file' ? data.contentType : data.type, layout.dataLink.getAttribute('href') ?? '#');
}
