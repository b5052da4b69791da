/**
 * @module assemble-host
 * A host's services, put together: the compute half (shared with `vitrine worker`), the
 * specimen catalog, the event hub, the result and job stack (with `--redis`, joined to the
 * service), rooms and published specimens, the encoders, the reload that runs through all of
 * them, the services the routes share (`HostContext`), `app.vitrine`, and federation's port to
 * this host's own results and jobs. createApp installs what this returns on fastify.
 */
import path from 'node:path';
import { sessionSpecimens } from '../snapshots/service/session-specimens.ts';
import { arraysIntoRoom } from '../snapshots/service/room-arrays.ts';
import { tmpdir } from 'node:os';
import type { FastifyBaseLogger } from 'fastify';
import { notifyingStore } from '../annotations/notifying-store.ts';
import { DeliveryVariants } from '../delivery/delivery-variants.ts';
import { LabelIndexes } from '../delivery/label-indexes.ts';
import { VariantKeeper } from '../delivery/variant-keeper.ts';
import { VariantWork } from '../delivery/variant-work.ts';
import { HOST_CHANNEL } from '../events/channels.ts';
import { EventHub } from '../events/event-hub.ts';
import { createLocalRuns } from '../federation/local-runs.ts';
import type { FederationPort } from '../http/federation/install-federation.ts';
import type { OwnRouteServices } from '../http/install-routes.ts';
import type { AfterReloadHook, HostContext } from '../host-context.ts';
import { StaticInputs } from '../inputs/static-inputs.ts';
import type { RoomScheduler } from '../invoke/room-scheduler.ts';
import type { ResolvedHostOptions } from '../options.ts';
import type { ReloadCounts } from '../versions/reload-sources.ts';
import { SpecimenCatalog } from '../registry/specimen-catalog.ts';
import { RELOAD_IMPORT_WAIT_MS } from '../python/python-runtime.ts';
import { JsonResultEncoder } from '../serving/json-encoder.ts';
import { FileParser } from '../workers/file-parser.ts';
import { deliveryTaskRunner, editingRunners, meshLodsRunner, pictureRunner, pyramidRunner, remoteVolumeRunner } from '../workers/task-pool.ts';
import { MeshLods } from '../meshes/mesh-lods.ts';
import type { KeptLevelSets } from '../meshes/kept-level-sets.ts';
import { DiskKeptLevelSets } from '../meshes/disk-kept-level-sets.ts';
import { RedisKeptLevelSets } from '../meshes/redis-kept-level-sets.ts';
import { VolumePyramids } from '../pyramid/volume-pyramids.ts';
import { assembleResults, type ResultStack } from './assemble-results.ts';
import { assembleWorkspace, type Workspace } from './assemble-workspace.ts';
import { RoomScenes } from '../scenes/service/room-scenes.ts';
import { RoomWorkspace } from '../rooms/service/room-workspace.ts';
import { LabelsEditing } from '../edits/service/labels-editing.ts';
import { CarriedEdits } from '../edits/service/carried-edits.ts';
import { RoomSnapshots } from '../snapshots/service/room-snapshots.ts';
import { assembleCompute } from './compute-assembly.ts';
import { createVitrineHandle, type VitrineHandle } from './vitrine-handle.ts';
import { roomReplayTarget } from './room-replay-target.ts';
import { Replays } from '../history/replays.ts';
import { ConversationRecord } from '../history/conversation-record.ts';
import { hasMeshLevels } from '../meshes/has-levels.ts';
import type { StoredResult } from '../results/stored-result.ts';
import { RemoteData } from '../remote/remote-data.ts';
import type { RemoteCache } from '../remote/remote-cache.ts';
import { BlobRemoteCache } from '../remote/blob-remote-cache.ts';
import { DiskRemoteCache } from '../remote/disk-remote-cache.ts';
import { refreshRemotes } from '../published/remote-record.ts';
import { OpenRetries } from '../remote/open-retries.ts';
import { waitAtMost } from '../redis/time-limit.ts';

/** Longest a starting host waits to open the remote specimens it keeps before it answers. */
const REMOTE_START_WAIT_MS = 5000;

/** A host's services, put together; its home's people, client ids and agent relay, and its Redis service or data folder (null without). */
export interface HostAssembly extends Pick<Workspace, 'people' | 'clientIds' | 'agentRelay'>, Pick<ResultStack, 'scale' | 'data'> {
  /** The services the routes share. */
  ctx: HostContext;
  /** `app.vitrine`. */
  handle: VitrineHandle;
  /** What some route groups alone read, beside the services they share (`ctx`). */
  own: Pick<OwnRouteServices, 'pyramids' | 'meshes' | 'replays' | 'editing'>;
  /** What federation takes of this host: its own results and jobs, the invokers, the reload's hooks. */
  federation: FederationPort;
  scheduler: RoomScheduler;
  /** Why Python plugins cannot be served yet (starting, importing, degraded), or null. */
  pythonNotReady(): string | null;
  /** Each room's conversation with its agent, as its log keeps it. */
  conversations: ConversationRecord;
  /** Stops everything, last what the rest uses (the pools). */
  close(): Promise<void>;
}

/** Where remote reads or level sets outlive this process: a service's blob store, else a lone host's data folder; else nowhere. */
function keptBeyondProcess<T>(
  stack: ResultStack,
  options: ResolvedHostOptions,
  InService: new (...args: ConstructorParameters<typeof BlobRemoteCache>) => T,
  OnDisk: new (...args: ConstructorParameters<typeof DiskRemoteCache>) => T,
): T | null {
  if (stack.scale) {
    const keepMs = Math.max(options.cacheTtlSeconds, options.jobTtlSeconds) * 1000;
    return new InService(stack.scale.connections.command, stack.scale.blobs, keepMs);
  }
  return stack.kept ? new OnDisk(stack.kept) : null;
}

export async function assembleHost(options: ResolvedHostOptions, log: FastifyBaseLogger): Promise<HostAssembly> {
  const compute = await assembleCompute(options, { info: (line) => log.info(line), warn: (line) => log.warn(line) });
  const catalog = new SpecimenCatalog((id, kept, dropped) =>
    log.warn(`specimen id '${id}' from ${dropped.origin} is hidden by the ${kept.origin} specimen of the same id`),
  );
  const events = new EventHub();
  // The editing service names versions of edited labels layers before it makes them, and is built
  // last: it reads the scenes, which find results by id through the stack built first. Finding a
  // version by its id reaches it through this function, made before both.
  const named = (id: string) => editing.versionNamed(id);
  const stack = await assembleResults({ options, compute, catalog, events, log, named });
  const { scale, data } = stack;
  const workspace = await assembleWorkspace({
    options,
    results: stack.results,
    budget: stack.budget,
    catalog,
    events,
    scale,
    data,
    log,
    warn: (message, err) => log.warn({ err }, message),
  });
  // After a reload or a plugin swap, a Redis service learns what this host now runs.
  const announce = async () => {
    await stack.scale?.node?.announce();
  };
  // After a plugin swap (a reload does it itself): Python processes import what changed, and a
  // plugin whose import fails leaves before the service hears of it.
  const afterSwap = async () => {
    const leftOut = await compute.python.sync({ functions: compute.functions, catalog }, RELOAD_IMPORT_WAIT_MS);
    await announce();
    return leftOut;
  };

  const reloadHooks: AfterReloadHook[] = [];
  async function reload(): Promise<ReloadCounts> {
    let counts = await compute.reload(catalog, stack.scale?.sharing);
    for (const line of counts.problems) log.warn(line);
    for (const hook of reloadHooks) counts = { ...counts, ...(await hook(counts)) };
    events.publish(HOST_CHANNEL, { event: 'reload', data: { plugin: null } });
    await announce();
    return counts;
  }

  const files = new FileParser(compute.pools.encode);
  // The encode threads' turns and the label indexes first: level sets wait in the one and read
  // the other, and delivery takes surfaces within a triangle budget from the level sets.
  const work = new VariantWork(deliveryTaskRunner(compute.pools.encode));
  const keeper = new VariantKeeper(stack.budget);
  const labels = new LabelIndexes(work, keeper);
  const meshes = new MeshLods({
    run: meshLodsRunner(compute.pools.encode),
    turns: work.turns,
    budget: stack.budget,
    labelIndex: (volume, client) => labels.of(volume, client),
    indexDerived: (volume, from, change) => labels.derived(volume, from, change),
    lodTriangles: options.meshLodTriangles,
    kept: keptBeyondProcess<KeptLevelSets>(stack, options, RedisKeptLevelSets, DiskKeptLevelSets),
    idOf: (result) => stack.resultIds.of(result),
    warn: (line) => log.warn(line),
  });
  const delivery = new DeliveryVariants({ work, keeper, labels, levels: meshes, maxMeshBytes: options.maxDeliveryBytes });
  // What scenes read the room's marks through; every other writer of marks goes through the notifying store made after them.
  const sources: Omit<HostContext, 'rooms' | 'scenes' | 'snapshots' | 'editing'> = {
    options,
    uploads: stack.uploads,
    files,
    staticInputs: new StaticInputs(files.parse),
    remotes: new RemoteData({
      ...options,
      budget: stack.budget,
      run: remoteVolumeRunner(compute.pools.encode),
      shared: keptBeyondProcess<RemoteCache>(stack, options, BlobRemoteCache, DiskRemoteCache),
      store: workspace.remoteSpecimens,
      warn: (message, err) => (err === undefined ? log.warn(message) : log.warn({ err }, message)),
    }),
    published: workspace.published,
    history: workspace.history,
    presence: workspace.presence,
    annotations: workspace.annotations,
    functions: compute.functions,
    plugins: compute.home,
    catalog,
    results: stack.results,
    jobs: stack.jobs,
    json: new JsonResultEncoder(compute.pools.encode, { maxJsonResultBytes: options.maxJsonResultBytes, budget: stack.budget }),
    resultIds: stack.resultIds,
    delivery,
    pictures: pictureRunner(compute.pools.encode),
    events,
    reload,
  };
  // Remote specimens published on another host of the service (or before a restart) are listed
  // as published ones are: with every refresh, and once before the host answers (bounded: one
  // whose remote is down is tried again by itself, with a growing wait, until it opens).
  const remotes = { remotes: sources.remotes, catalog };
  const opening = new OpenRetries(() => refreshRemotes(remotes), (message, err) => log.warn({ err }, message));
  workspace.published.follow(() => opening.run());
  await waitAtMost(opening.run(), REMOTE_START_WAIT_MS);
  const hasLevels = (result: StoredResult) => hasMeshLevels(result, options.meshLodTriangles);
  const scenes = new RoomScenes(
    {
      store: workspace.sceneStore,
      sources,
      results: stack.results,
      rooms: workspace.rooms,
      log,
      kept: stack.kept,
      hasLevels,
    },
    events,
  );
  // Requests see a room's own entry joined to its scene: what they show becomes the active layer.
  const rooms = new RoomWorkspace(workspace.rooms, scenes);
  // Each write of a room's marks on this host has the layers bound to its points computed again.
  const base = { ...sources, rooms, annotations: notifyingStore(workspace.annotations, (roomId) => scenes.marksChanged(roomId)) };
  // Layers that follow a plugin's newest version are computed again when a reload brings one.
  compute.home.versions.onChange((change) => {
    const plugins = new Set(change.came.map((p) => p.name));
    if (plugins.size > 0)
      void scenes.followNewest(plugins).catch((err: unknown) => log.warn({ err }, 'layers following the newest plugin versions could not be computed again'));
  });
  // A room's conversation with its agent, in its log: written by the agent, a replay and read by snapshots.
  const conversations = new ConversationRecord(workspace.history, (roomId, event, data) => workspace.rooms.announce(roomId, event, data));
  const editing = new LabelsEditing({
    scenes,
    sources: base,
    store: workspace.edits,
    budget: stack.budget,
    ...editingRunners(compute.pools.encode),
    sceneStore: workspace.sceneStore,
    warn: (message, err) => log.warn({ err }, message),
    versions: meshes,
    labelIndex: (volume, client) => labels.of(volume, client),
  });
  const carriedEdits = new CarriedEdits(editing, base.resultIds, (message, err) => log.warn({ err }, message));
  const snapshots = new RoomSnapshots({
    ...workspace.snapshots,
    scenes,
    rooms,
    sources: base,
    ttlSeconds: options.snapshotTtlSeconds,
    conversation: async (roomId) => (await conversations.load(roomId)).entries,
    published: workspace.published,
    hasLevels,
    carried: sessionSpecimens(sources),
    arraysInto: (roomId, layers) => arraysIntoRoom(sources, roomId, layers),
    editedVersion: (roomId, layerId) => carriedEdits.editedVersion(roomId, layerId),
    replayEdits: (roomId, edits) => carriedEdits.replay(roomId, edits),
    // Session files arrive on disk: the data folder's own temporary folder (cleared at start), else the system's.
    spoolDir: data ? path.join(data.store.dir, 'tmp') : tmpdir(),
  });
  // Another room's log played into a room, through the same services the routes change rooms with.
  const replays = new Replays({
    log: workspace.history.store,
    target: roomReplayTarget({ rooms, scenes, annotations: base.annotations, conversations }),
    recorder: workspace.history,
    warn: (message, err) => log.warn({ err }, message),
    announce: (roomId, status) => void workspace.rooms.announce(roomId, 'replay', status).catch(() => {}),
  });
  const ctx: HostContext = { ...base, scenes, snapshots, editing };
  return {
    ctx,
    handle: createVitrineHandle(ctx, { cache: stack.cache, warn: (line) => log.warn(line), info: (line) => log.info(line), afterSwap }),
    own: {
      pyramids: new VolumePyramids(pyramidRunner(compute.pools.encode), stack.budget),
      meshes,
      replays,
      editing,
    },
    federation: {
      local: createLocalRuns(stack.local.results, stack.local.jobs),
      relay: stack.scale?.relay ?? null,
      invokers: compute.invokers,
      afterReload: (hook) => void reloadHooks.push(hook),
    },
    scheduler: compute.scheduler,
    pythonNotReady: () => compute.python.notReady(),
    scale: stack.scale,
    data: stack.data,
    people: workspace.people,
    conversations,
    clientIds: workspace.clientIds,
    agentRelay: workspace.agentRelay,
    async close() {
      opening.close();
      replays.close();
      ctx.scenes.close();
      workspace.close();
      await stack.close();
      await compute.close();
    },
  };
}
