/**
 * @module store-homes
 * What a home of a host's stores gives: every store of its rooms and people, built once by the
 * home the assembly chose (memory-homes.ts, disk-homes.ts, redis-homes.ts), every one over the
 * same room log, so each change of a room and its log entry are one write of that home (one
 * transaction of the data folder, one Redis script, one turn of memory).
 */
import type { AgentRelay } from '../agent/service/agent-relay.ts';
import type { ClientIds } from '../agent/client-ids.ts';
import type { AnnotationStore } from '../annotations/annotation-store.ts';
import type { EditStore } from '../edits/edit-store.ts';
import type { ResultBudget } from '../cache/result-budget.ts';
import type { EventHub } from '../events/event-hub.ts';
import type { RoomLogStore } from '../history/room-log-store.ts';
import type { ResolvedHostOptions } from '../options.ts';
import type { PeopleStores } from '../people/people.ts';
import type { LiveRelay } from '../presence/live-relay.ts';
import type { Roster } from '../presence/roster.ts';
import type { PublishedShare } from '../published/published-record.ts';
import type { RemoteSpecimenStore } from '../remote/remote-specimen-store.ts';
import type { StoredResult } from '../results/stored-result.ts';
import type { RoomBoard } from '../rooms/room-board.ts';
import type { SceneStore } from '../scenes/scene-store.ts';
import type { ResultPins, SnapshotStore } from '../snapshots/snapshot-store.ts';

/** Every store of a host's rooms and people, all of one home. */
export interface StoreHomes {
  /** Each room's log, which every store below appends to in the write of its change. */
  log: RoomLogStore;
  board: RoomBoard;
  scenes: SceneStore;
  annotations: AnnotationStore;
  /** Labels layers' edits. */
  edits: EditStore;
  snapshots: SnapshotStore;
  /** What keeps the results snapshots show. */
  pins: ResultPins;
  /** The specimens published from remotes: their references (memory, the data folder, or the service). */
  remoteSpecimens: RemoteSpecimenStore;
  /** Where published specimens are shared beyond this host's memory (null: nowhere). */
  share: PublishedShare | null;
  people: PeopleStores;
  /** Who is in each room; and, on a service, the relay of live poses between hosts. */
  roster: Roster;
  relay: LiveRelay | null;
  /** The client ids of rooms' agent sockets, counted where they outlive the host when the home does. */
  clientIds: ClientIds;
  /** On a service, how a room's agent spans its hosts (one holds each conversation); null on a lone host. */
  agentRelay: AgentRelay | null;
  /** Stops what the stores run (sweeps, subscriptions); the scenes close with their service, people with theirs. */
  close(): void;
}

/** A home's `close`: each part closed in the order given (a promise one gives is not waited for). */
export function closeAll(...parts: { close(): unknown }[]): () => void {
  return () => {
    for (const part of parts) void part.close();
  };
}

/** What every home is built from. */
export interface HomeDeps {
  options: Pick<ResolvedHostOptions, 'cacheTtlSeconds' | 'maxAnnotations' | 'logTtlSeconds' | 'dataDir'>;
  events: EventHub;
  budget: ResultBudget<StoredResult>;
  warn: (message: string, error: unknown) => void;
}
