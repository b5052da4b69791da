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
import { HOST_CHANNEL, roomChannel } from '../events/channels.ts';
import type { EventHub } from '../events/event-hub.ts';
import type { ResolvedHostOptions } from '../options.ts';
import type { SpecimenCatalog } from '../registry/specimen-catalog.ts';
import type { ResultSource } from '../serving/result-source.ts';
import type { StoredResult } from '../results/stored-result.ts';
import type { ScaleService } from './scale-service.ts';
import { PublishedSpecimens, type PublishedLog } from '../workspace/published-specimens.ts';
import { MemoryRoomBoard } from '../rooms/memory-room-board.ts';
import type { RoomBoard } from '../rooms/room-board.ts';
import { RoomWorkspace } from '../workspace/room-workspace.ts';
import { MemorySceneStore } from '../scenes/memory-scene-store.ts';
import type { SceneStore } from '../scenes/scene-store.ts';
import { MemoryResultPins, MemorySnapshotStore } from '../snapshots/memory-snapshot-store.ts';
import type { ResultPins, SnapshotStore } from '../snapshots/snapshot-store.ts';

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
  close(): void;
}

export async function assembleWorkspace(deps: {
  options: Pick<ResolvedHostOptions, 'publishedTtlSeconds' | 'cacheTtlSeconds' | 'maxAnnotations'>;
  results: ResultSource;
  budget: ResultBudget<StoredResult>;
  catalog: SpecimenCatalog;
  events: EventHub;
  scale: ScaleService | null;
  log: PublishedLog;
}): Promise<Workspace> {
  const { options, scale } = deps;
  let board: RoomBoard = new MemoryRoomBoard(deps.events, options.cacheTtlSeconds);
  let sceneStore: SceneStore = new MemorySceneStore((roomId, scene) => deps.events.publish(roomChannel(roomId), { event: 'scene', data: scene }));
  // Snapshots never give way to each other: past these bounds a new one is refused (507).
  let snapshots: Workspace['snapshots'] = {
    store: new MemorySnapshotStore(Math.max(64 * 1024 * 1024, deps.budget.maxBytes / 4)),
    pins: new MemoryResultPins(deps.budget),
  };
  let annotations: AnnotationStore = new MemoryAnnotationStore(deps.events, {
    maxPerRoom: options.maxAnnotations,
    maxPerHost: Math.max(DEFAULT_MAX_PER_HOST, options.maxAnnotations),
  });
  let share = null;
  if (scale) {
    const [{ RedisRoomBoard }, { RedisPublished }, { RedisSceneStore }, { RedisSnapshotStore, RedisResultPins }, { RedisAnnotationStore }] = await Promise.all([
      import('../rooms/redis-room-board.ts'),
      import('../workspace/redis-published.ts'),
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
    snapshots = { store: new RedisSnapshotStore(scale.connections.command), pins: new RedisResultPins(scale.blobs) };
  }
  const events = deps.events;
  const onChange = (id: string) => void events.publish(HOST_CHANNEL, { event: 'catalog', data: { specimens: [id] } });
  const published = new PublishedSpecimens({
    catalog: deps.catalog,
    budget: deps.budget,
    share,
    ttlSeconds: options.publishedTtlSeconds,
    log: deps.log,
    onChange,
  });
  // A restarted host lists what the service published before it answers (bounded wait).
  await published.refresh();
  let poll: NodeJS.Timeout | null = null;
  if (share) {
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
    close: () => {
      if (poll) clearInterval(poll);
      snapshots.store.close();
      snapshots.pins.close();
      annotations.close();
      published.close();
    },
  };
}
