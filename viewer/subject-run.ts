/**
 * @module subject-run
 * One request of the page's own subject, from "Computing…" to the stage: the room told what
 * this page asked for, the subject fetched as its plan says (subject-plan.ts, coarse first
 * where the type refines), each answer shown on the stage while the request is still the
 * newest, the job's end noted with its timing, and a failure shown with a Retry.
 */
import type { VitrineClient } from '../core/client/client.ts';
import type { SpecimenData } from '../core/wire/decoded-types.ts';
import type { DeliveryQuery } from '../core/wire/wire-types.ts';
import { loadCoarseFirst, showRefineNote } from './coarse-first.ts';
import type { JobView } from './panels/job-view.ts';
import { showFailure } from './panels/request-failure.ts';
import type { AdoptedBlob } from './room/room-blob.ts';
import type { RoomSubject } from './room/room-follower.ts';
import { subjectPlan, type SubjectAsk } from './room/subject-plan.ts';
import { showOnStage, type StageParts } from './show-on-stage.ts';
import type { VrMode } from './xr/vr-mode.ts';
import type { LodSource } from './layers/mesh/lod-shared.ts';

/** The page's parts one run reads and shows into. */
export interface SubjectRunParts extends Omit<StageParts, 'thumbnailUrl' | 'steps' | 'levels'> {
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

/** One answer on the stage; a volume with time or channels fetches its other steps with the same values. */
function showSubject(parts: SubjectRunParts, data: SpecimenData, ask: SubjectAsk, refined: boolean, levels?: LodSource): Promise<void> {
  const { client, isFunction } = parts;
  const { context, meta, params, room } = ask;
  const thumbnailUrl = isFunction ? null : client.thumbnailUrl(meta.id);
  const steps = isFunction
    ? undefined
    : (delivery: DeliveryQuery, signal: AbortSignal) => client.getData(meta.id, { params, room, delivery, signal });
  return showOnStage({ ...parts, thumbnailUrl, steps, levels }, data, meta, () => context.isCurrent(), refined);
}
