/**
 * @module assemble-workspace
 * Rooms as shared workspaces, for one host: its published specimens, its rooms' views and
 * shown specimens, their scenes and annotations, kept by the host itself or, on a Redis service, in the
 * service (loaded only then, so a lone host never loads Redis code). Each change of the published specimens
 * this host lists goes out on the host event stream as `catalog` (`{"specimens": [id]}`), so
 * open viewers list a new specimen at once; on a service, a host with viewers listening reads
 * the service's list every few seconds to notice what other hosts published.
 */
import type { AnnotationStore } from '../annotations/annotation-store.ts';
import { DEFAULT_MAX_PER_HOST, MemoryAnnotationStore } from '../annotations/memory-annotation-store.ts';
import type { ResultBudget } from '../cache/result-budget.ts';
import { HOST_CHANNEL, ROOM_CHANNEL_PREFIX } from '../events/channels.ts';
import type { EventHub } from '../events/event-hub.ts';
import type { ResolvedHostOptions } from '../options.ts';
import type { SpecimenCatalog } from '../registry/specimen-catalog.ts';
import type { ResultSource } from '../serving/result-source.ts';
import type { StoredResult } from '../results/stored-result.ts';
import type { ScaleService } from './scale-service.ts';
import type { DurableData } from './open-durable.ts';
import type { PublishedShare } from '../published/published-record.ts';
import { PublishedSpecimens, type PublishedLog } from '../published/published-specimens.ts';
import { MemoryRoomBoard } from '../rooms/memory-room-board.ts';
import type { RoomBoard } from '../rooms/room-board.ts';
import { RoomWorkspace } from '../rooms/service/room-workspace.ts';
import { MemorySceneStore } from '../scenes/memory-scene-store.ts';
import type { SceneStore } from '../scenes/scene-store.ts';
import { SceneNamers } from '../scenes/scene-names.ts';
import { BlobResultPins } from '../snapshots/blob-result-pins.ts';
import { MemoryResultPins, MemorySnapshotStore } from '../snapshots/memory-snapshot-store.ts';
import type { ResultPins, SnapshotStore } from '../snapshots/snapshot-store.ts';
import { LoggedSceneStore, loggedAnnotations, loggedBoard } from '../history/logged-stores.ts';
import { DiskRoomLog } from '../history/disk-room-log.ts';
import { MemoryRoomLog } from '../history/memory-room-log.ts';
import { RoomRecorder } from '../history/room-recorder.ts';
import type { RoomLogStore } from '../history/room-log-store.ts';
import { LiveHub } from '../presence/live-hub.ts';
import { MemoryRoster } from '../presence/memory-roster.ts';
import { PresenceService } from '../presence/presence-service.ts';
import type { Roster } from '../presence/roster.ts';
import type { LiveRelay } from '../presence/live-relay.ts';

/** How often a service's host with viewers listening reads whether other hosts published. */
const SERVICE_POLL_MS = 2000;

export interface Workspace {
  published: PublishedSpecimens;
  rooms: RoomWorkspace;
  annotations: AnnotationStore;
  /** Rooms' scenes: in this host's memory, or in the Redis service. */
  sceneStore: SceneStore;
  /** Rooms' snapshots and the pins that keep their bytes. */
  snapshots: { store: SnapshotStore; pins: ResultPins };
  /** Rooms' logs: every change of the stores above recorded, in this host's memory or the Redis service. */
  history: RoomRecorder;
  /** Who is in each room and their live poses: this host's, or the whole Redis service's. */
  presence: PresenceService;
  close(): void;
}

export async function assembleWorkspace(deps: {
  options: Pick<ResolvedHostOptions, 'publishedTtlSeconds' | 'cacheTtlSeconds' | 'maxAnnotations' | 'logTtlSeconds'>;
  results: ResultSource;
  budget: ResultBudget<StoredResult>;
  catalog: SpecimenCatalog;
  events: EventHub;
  scale: ScaleService | null;
  /** A lone host's data folder: every store of the workspace kept in it. */
  data: DurableData | null;
  log: PublishedLog;
  /** How a log entry that could not be kept is reported. */
  warn?: (message: string, error: unknown) => void;
}): Promise<Workspace> {
  const { options, scale } = deps;
  let board: RoomBoard = new MemoryRoomBoard(deps.events, options.cacheTtlSeconds);
  let sceneStore: SceneStore = new MemorySceneStore(deps.events);
  // Snapshots never give way to each other: past these bounds a new one is refused (507).
  let snapshots: Workspace['snapshots'] = {
    store: new MemorySnapshotStore(Math.max(64 * 1024 * 1024, deps.budget.maxBytes / 4)),
    pins: new MemoryResultPins(deps.budget),
  };
  let annotations: AnnotationStore = new MemoryAnnotationStore(deps.events, {
    maxPerRoom: options.maxAnnotations,
    maxPerHost: Math.max(DEFAULT_MAX_PER_HOST, options.maxAnnotations),
  });
  let share: PublishedShare | null = null;
  if (deps.data) {
    const durable = await durableWorkspace(deps.data, deps.events, options);
    snapshots.pins.close();
    snapshots.store.close();
    ({ board, sceneStore, annotations, snapshots, share } = durable);
  }
  // A lone host's data folder keeps each room's log as it keeps the room; else memory (or Redis, below).
  let logStore: RoomLogStore = deps.data ? new DiskRoomLog(deps.data.store, options.logTtlSeconds) : new MemoryRoomLog(options.logTtlSeconds);
  let roster: Roster | null = null;
  let relay: LiveRelay | null = null;
  if (scale) {
    const [{ RedisRoomBoard }, { RedisPublished }, { RedisSceneStore }, { RedisSnapshotStore }, { RedisAnnotationStore }] = await Promise.all([
      import('../rooms/redis-room-board.ts'),
      import('../published/redis-published.ts'),
      import('../scenes/redis-scene-store.ts'),
      import('../snapshots/redis-snapshot-store.ts'),
      import('../annotations/redis-annotation-store.ts'),
    ]);
    board = new RedisRoomBoard(scale.connections.command, options.cacheTtlSeconds);
    share = new RedisPublished(scale.connections.command, scale.connections.blobs);
    sceneStore = new RedisSceneStore(scale.connections.command);
    annotations = new RedisAnnotationStore(scale.connections.command, options.maxAnnotations);
    snapshots.pins.close();
    snapshots.store.close();
    snapshots = { store: new RedisSnapshotStore(scale.connections.command), pins: new BlobResultPins(scale.blobs) };
    const { RedisRoomLog } = await import('../history/redis-room-log.ts');
    logStore.close();
    logStore = new RedisRoomLog(scale.connections.command, options.logTtlSeconds);
    const [{ RedisRoster }, { RedisLiveRelay }] = await Promise.all([import('../presence/redis-roster.ts'), import('../presence/redis-live-relay.ts')]);
    // The rooms this host streams are the ones whose silent peers it looks for.
    const streamed = () => deps.events.channels(ROOM_CHANNEL_PREFIX).map((channel) => channel.slice(ROOM_CHANNEL_PREFIX.length));
    const announceOn = board;
    roster = new RedisRoster(scale.connections.command, (roomId, event, data) => announceOn.announce(roomId, event, data), streamed);
    const live = new RedisLiveRelay(scale.connections.command, scale.connections.subscriber.duplicate());
    // Not awaited: a host started while Redis is down listens at once, and poses cross hosts once it answers.
    live.start().catch((err: unknown) => deps.warn?.('live poses could not subscribe across hosts', err));
    relay = live;
  }
  const roomBoard = board;
  const presence = new PresenceService(
    roster ?? new MemoryRoster((roomId, event, data) => roomBoard.announce(roomId, event, data)),
    new LiveHub(relay),
    deps.events,
  );
  // Every change of a room's stores is recorded in its log, whichever route or service made it.
  const history = new RoomRecorder(logStore, deps.warn ?? (() => {}));
  board = loggedBoard(board, history);
  sceneStore = new LoggedSceneStore(sceneStore, history);
  annotations = loggedAnnotations(annotations, history);
  const events = deps.events;
  const onChange = (id: string) => void events.publish(HOST_CHANNEL, { event: 'catalog', data: { specimens: [id] } });
  const published = new PublishedSpecimens({
    catalog: deps.catalog,
    budget: deps.budget,
    share,
    ttlSeconds: options.publishedTtlSeconds,
    log: deps.log,
    onChange,
    // What a room's scene names lives as long as the room names it.
    namers: new SceneNamers(sceneStore),
  });
  // A restarted host lists what the service published before it answers (bounded wait).
  await published.refresh();
  let poll: NodeJS.Timeout | null = null;
  if (scale) {
    poll = setInterval(() => {
      if (events.listenerCount(HOST_CHANNEL) > 0) void published.refresh();
    }, SERVICE_POLL_MS);
    poll.unref();
  }
  return {
    published,
    rooms: new RoomWorkspace(deps.results, board),
    sceneStore,
    snapshots,
    annotations,
    history,
    presence,
    close: () => {
      void presence.close();
      if (poll) clearInterval(poll);
      snapshots.store.close();
      snapshots.pins.close();
      annotations.close();
      logStore.close();
      published.close();
    },
  };
}

/** The workspace's stores in a lone host's data folder (loaded only then). */
async function durableWorkspace(
  data: DurableData,
  events: EventHub,
  options: Pick<ResolvedHostOptions, 'cacheTtlSeconds' | 'maxAnnotations'>,
): Promise<{ board: RoomBoard; sceneStore: SceneStore; annotations: AnnotationStore; snapshots: Workspace['snapshots']; share: PublishedShare }> {
  const [{ DiskRoomBoard }, { DiskSceneStore }, { DiskAnnotationStore }, { DiskSnapshotStore }, { DiskPublished }] = await Promise.all([
    import('../rooms/disk-room-board.ts'),
    import('../scenes/disk-scene-store.ts'),
    import('../annotations/disk-annotation-store.ts'),
    import('../snapshots/disk-snapshot-store.ts'),
    import('../published/disk-published.ts'),
  ]);
  const { store } = data;
  return {
    board: new DiskRoomBoard(store, events, options.cacheTtlSeconds),
    sceneStore: new DiskSceneStore(store, events),
    annotations: new DiskAnnotationStore(store, events, options.maxAnnotations),
    snapshots: { store: new DiskSnapshotStore(store), pins: new BlobResultPins(data.blobs) },
    share: new DiskPublished(store),
  };
}
