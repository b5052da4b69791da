/**
 * @module assemble-workspace
 * Rooms as shared workspaces, for one host: its published specimens, its rooms' views and
 * shown specimens, their scenes, annotations, snapshots and logs, its people's stores, and who
 * is in each room, all kept in the one home chosen for this host (`chooseHomes`). Each change
 * of the published specimens this host lists goes out on the host event stream as `catalog`
 * (`{"specimens": [id]}`), so open viewers list a new specimen at once; on a service, a host
 * with viewers listening reads the service's list every few seconds to notice what other hosts
 * published.
 */
import type { ResultBudget } from '../cache/result-budget.ts';
import { HOST_CHANNEL } from '../events/channels.ts';
import type { EventHub } from '../events/event-hub.ts';
import { RoomRecorder } from '../history/room-recorder.ts';
import type { ResolvedHostOptions } from '../options.ts';
import { LiveHub } from '../presence/live-hub.ts';
import { PresenceService } from '../presence/presence-service.ts';
import { PublishedSpecimens, type PublishedLog } from '../published/published-specimens.ts';
import type { SpecimenCatalog } from '../registry/specimen-catalog.ts';
import type { StoredResult } from '../results/stored-result.ts';
import { RoomEntries } from '../rooms/service/room-entries.ts';
import type { SceneStore } from '../scenes/scene-store.ts';
import { SceneNamers } from '../scenes/scene-names.ts';
import type { ResultSource } from '../serving/result-source.ts';
import type { ResultPins, SnapshotStore } from '../snapshots/snapshot-store.ts';
import type { DurableData } from './open-durable.ts';
import type { ScaleService } from './scale-service.ts';
import { memoryHomes } from './memory-homes.ts';
import type { HomeDeps, StoreHomes } from './store-homes.ts';

/** How often a service's host with viewers listening reads whether other hosts published. */
const SERVICE_POLL_MS = 2000;

/**
 * The one home of this host's stores, decided before any is built: the Redis service's when it
 * joined one, else its data folder's, else memory. The disk and Redis homes are loaded only when
 * chosen, so a lone host never loads Redis code and a host in memory never loads the store's engine.
 */
async function chooseHomes(deps: HomeDeps, scale: ScaleService | null, data: DurableData | null): Promise<StoreHomes> {
  if (scale) return (await import('./redis-homes.ts')).redisHomes(deps, scale);
  if (data) return (await import('./disk-homes.ts')).diskHomes(deps, data);
  return memoryHomes(deps);
}

/** A host's rooms, their annotations, people, client ids and agent relay in the home chosen (store-homes.ts). */
export interface Workspace extends Pick<StoreHomes, 'annotations' | 'edits' | 'people' | 'clientIds' | 'agentRelay' | 'remoteSpecimens'> {
  published: PublishedSpecimens;
  /** Rooms' own entries and views, apart from their scenes (requests see both joined: RoomWorkspace). */
  rooms: RoomEntries;
  /** Rooms' scenes: in this host's memory, its data folder or the Redis service. */
  sceneStore: SceneStore;
  /** Rooms' snapshots and the pins that keep their bytes. */
  snapshots: { store: SnapshotStore; pins: ResultPins };
  /** Rooms' logs: every change of the stores above, appended by the store in the write of the change. */
  history: RoomRecorder;
  /** Who is in each room and their live poses: this host's, or the whole Redis service's. */
  presence: PresenceService;
  close(): void;
}

export async function assembleWorkspace(deps: {
  options: Pick<ResolvedHostOptions, 'publishedTtlSeconds' | 'cacheTtlSeconds' | 'maxAnnotations' | 'logTtlSeconds' | 'dataDir'>;
  results: ResultSource;
  budget: ResultBudget<StoredResult>;
  catalog: SpecimenCatalog;
  events: EventHub;
  scale: ScaleService | null;
  /** A lone host's data folder: every store of the workspace kept in it. */
  data: DurableData | null;
  log: PublishedLog;
  /** How a failure in the background (a subscription, a store that cannot be opened) is reported. */
  warn: (message: string, error: unknown) => void;
}): Promise<Workspace> {
  const { options, events, scale } = deps;
  const homes = await chooseHomes({ options, events, budget: deps.budget, warn: deps.warn }, scale, deps.data);
  const presence = new PresenceService(homes.roster, new LiveHub(homes.relay), events);
  const onChange = (id: string) => void events.publish(HOST_CHANNEL, { event: 'catalog', data: { specimens: [id] } });
  const published = new PublishedSpecimens({
    catalog: deps.catalog,
    budget: deps.budget,
    share: homes.share,
    ttlSeconds: options.publishedTtlSeconds,
    log: deps.log,
    onChange,
    // What a room's scene names lives as long as the room names it.
    namers: new SceneNamers(homes.scenes),
  });
  // A restarted host lists what the service published before it answers (bounded wait).
  await published.refresh();
  let poll: NodeJS.Timeout | null = null;
  if (scale) {
    poll = setInterval(() => {
      if (events.listenerCount(HOST_CHANNEL) > 0) void published.refresh();
    }, SERVICE_POLL_MS).unref();
  }
  return {
    published,
    rooms: new RoomEntries(deps.results, homes.board),
    sceneStore: homes.scenes,
    snapshots: { store: homes.snapshots, pins: homes.pins },
    annotations: homes.annotations,
    edits: homes.edits,
    remoteSpecimens: homes.remoteSpecimens,
    history: new RoomRecorder(homes.log),
    people: homes.people,
    presence,
    clientIds: homes.clientIds,
    agentRelay: homes.agentRelay,
    close: () => {
      void presence.close();
      if (poll) clearInterval(poll);
      homes.close();
      published.close();
    },
  };
}
