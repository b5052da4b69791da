/**
 * @module subject-plan
 * How the page's own subject is fetched (viewer-app.ts runs it): a dynamic specimen and a
 * function from the Functions list alike through the job flow (`load` and `runFunction`:
 * progress shown, Cancel stops the job, the room cache's hit noted), a static one through
 * `/data`; meshes as meshopt GLB (in VR within the headset's
 * budget); a peer's entry this page adopts by its blob URL (room-blob.ts); all of it coarse
 * first where the type refines (coarse-first.ts). A static or published volume or mesh is
 * refined as a dynamic one is when the host shapes its file (static-shaping.ts); a file the
 * host sends only as it is comes whole, with no delivery asked for. A mesh or a segmentation
 * whose answer names a result with levels of detail is drawn from them (level-layers.ts): the
 * mesh's full delivery is then never asked for. An entry adopted from the room (the page
 * following it) is only read: its blob, else a GET as a follower, so a member who may only
 * look at the room sees it as it is without asking it for anything.
 */
import type { VitrineClient } from '../../core/client/client.ts';
import type { LoadOptions } from '../../core/client/load-job.ts';
import type { SpecimenData } from '../../core/wire/decoded-types.ts';
import type { DeliveryQuery, SpecimenMetadata } from '../../core/wire/wire-types.ts';
import { answerBytes, type CoarseFirstSteps } from '../coarse-first.ts';
import { asDecodedMesh, MESH_DELIVERY } from '../layers/mesh/glb-mesh.ts';
import { hostShapesStatic } from './static-shaping.ts';
import { eitherSignal, type RequestContext } from './latest-request.ts';
import { viaBlob, type AdoptedBlob } from './room-blob.ts';
import { levelsOfAnswer } from './level-layers.ts';
import type { LodSource } from '../layers/mesh/lod-shared.ts';
import type { RoomFollower, RoomSubject } from './room-follower.ts';
import type { JobView } from '../panels/job-view.ts';
import type { StageOverlay } from '../stage/stage-overlay.ts';
import type { VrMode } from '../xr/vr-mode.ts';

export interface SubjectPlanDeps {
  client: VitrineClient;
  job: JobView;
  overlay: StageOverlay;
  follower: RoomFollower;
  vr: VrMode | null;
  adopted: AdoptedBlob;
  /** The subject is a function without a specimen. */
  isFunction: boolean;
  /** What the page shows, as a room entry names it. */
  shown(): RoomSubject | null;
  /** The room cache served it (a hit, or the adopted entry's blob). */
  cached(): void;
  show(data: SpecimenData, refined: boolean, levels?: LodSource): Promise<void>;
  /** The `data_url` of the room's active layer (its result as the room shows it), null when it has none yet. */
  activeLayerUrl?(): string | null;
  /** The subject is a segmentation shown as its surfaces alone: with levels, nothing past its coarse answer is fetched. */
  surfacesOnly?(): boolean;
  /** Each answer's result (its `X-Result-Id`), once its headers come. */
  answeredBy?(resultId: string | null): void;
  refining(on: boolean): void;
}

/** One request of the page's subject: `meta` with `params` in `room`, shown while `context` is the newest request. */
export interface SubjectAsk {
  context: RequestContext;
  meta: SpecimenMetadata;
  params: Record<string, unknown> | undefined;
  room: string;
}

/** The type coarse-first refines, the full delivery, and the steps, for one request of the page's subject. */
export function subjectPlan(
  deps: SubjectPlanDeps,
  ask: SubjectAsk,
): { type: string; fine: DeliveryQuery | undefined; steps: CoarseFirstSteps } {
  const { client, vr } = deps;
  const { context, meta, params, room } = ask;
  // A static file the host cannot shape takes no delivery options: it is fetched as it is, once.
  const shapedStatic = !deps.isFunction && hostShapesStatic(meta);
  const asIs = !deps.isFunction && !meta.is_dynamic && !shapedStatic;
  const fine = asIs ? undefined : meta.type === 'mesh' ? { ...MESH_DELIVERY, ...vr?.delivery(meta.type) } : vr?.delivery(meta.type);
  // Served by the room cache (a hit, or the room's own result read): nothing is computed, so no
  // room result will answer the request.
  const servedByRoom = (): void => {
    deps.cached();
    if (meta.function_name) deps.follower.settled(meta.function_name, params ?? {}, true);
  };
  // A function's job and a specimen's show their start and progress the same way: the job
  // panel its id, its state (cached or running) and each message, the loading pill the latest.
  const callbacks = (): Pick<LoadOptions, 'onStart' | 'onProgress'> => ({
    onStart: (start) => {
      if (!context.isCurrent()) return;
      const cached = start.status === 'done';
      if (cached) servedByRoom();
      deps.job.setJobId(start.job_id);
      deps.job.set(cached ? 'cached' : 'running');
    },
    onProgress: (message) => {
      if (!context.isCurrent()) return;
      deps.job.addMessage(message);
      deps.overlay.loadingText(message.text);
    },
  });
  // A peer's entry this page adopts is the room's echo: by its blob URL, unless in VR (a
  // budgeted delivery has no blob of the entry), and any `/data` it still asks says it follows.
  const adopted = deps.adopted.take(deps.shown());
  const follows = adopted !== null;
  // The levels of the answer's result, looked for once its headers come; a mesh that has them
  // asks for no full delivery (so its coarse answer's size does not start one either).
  let levels: LodSource | null = null;
  const levelsSuffice = (): boolean => meta.type === 'mesh' || deps.surfacesOnly?.() === true;
  let found: Promise<LodSource | null> = Promise.resolve(null);
  const headers = (response: Response, answered?: (bytes: number | null) => void): void => {
    deps.answeredBy?.(response.headers.get('x-result-id'));
    found = levelsOfAnswer(client, response, meta.type, context.signal).catch(() => null);
    void found.then((lod) => (lod && levelsSuffice() ? undefined : answered?.(answerBytes(response))));
  };
  const fetched = (delivery: DeliveryQuery | undefined, answered?: (bytes: number | null) => void): Promise<SpecimenData> => {
    const onHeaders = (response: Response) => headers(response, answered);
    const { signal } = context;
    // The room's own entry is read, never asked for: starting a job changes the room, which a
    // member who may only look at it is refused. A function's entry is read from the active
    // layer the room shows it in, a specimen's from `/data` as a follower.
    // What the room computed, read: served from the room cache, as a hit of the job flow says.
    const fromRoom = (data: SpecimenData): SpecimenData => {
      servedByRoom();
      return data;
    };
    const layerUrl = follows && deps.isFunction ? (deps.activeLayerUrl?.() ?? null) : null;
    if (layerUrl) return client.getLayerData(layerUrl, { delivery, signal, onHeaders }).then(fromRoom);
    if (deps.isFunction) return client.runFunction(meta.id, params, { room, signal, ...callbacks() });
    if (meta.is_dynamic && !follows) return client.load(meta.id, params, { room, delivery, signal, onHeaders, ...callbacks() });
    if (meta.is_dynamic) return client.getData(meta.id, { params, room, delivery, follows, signal, onHeaders }).then(fromRoom);
    return client.getData(meta.id, { room, delivery, follows, signal, onHeaders });
  };
  const first = async (delivery: DeliveryQuery | undefined, answered?: (bytes: number | null) => void): Promise<SpecimenData> => {
    const data = await asDecodedMesh(await fetched(delivery, answered));
    levels = await found;
    return data;
  };
  const blobId = vr?.delivery(meta.type) ? null : (adopted?.blobId ?? null);
  const steps: CoarseFirstSteps = {
    first,
    full: async (delivery, signal) =>
      asDecodedMesh(await client.getData(meta.id, { params, room, signal: eitherSignal(context.signal, signal), delivery, follows })),
    show: (data, refined) => deps.show(data, refined, levels ?? undefined),
    refining: deps.refining,
    isCurrent: () => context.isCurrent(),
    refines: () => !(levels && levelsSuffice()),
  };
  const load = (id: string, signal?: AbortSignal): Promise<SpecimenData> =>
    client.getBlob(id, eitherSignal(context.signal, signal)).then(asDecodedMesh);
  const refined = (meta.is_dynamic && !deps.isFunction) || shapedStatic;
  const plan = viaBlob(blobId, refined ? meta.type : 'none', steps, load, servedByRoom);
  return { ...plan, fine };
}
