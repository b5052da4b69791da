/**
 * @module memory-homes
 * The stores of a host that keeps its rooms in memory (`--data-dir none`, a federation worker,
 * a host made in code): gone with the process, bounded so that no client exhausts it, each
 * change and its log entry made in one turn. Users still come from the data dir when one is
 * named (the one `vitrine users` writes).
 */
import { MemoryClientIds } from '../agent/memory-client-ids.ts';
import { DEFAULT_MAX_PER_HOST, MemoryAnnotationStore } from '../annotations/memory-annotation-store.ts';
import { MemoryEditStore } from '../edits/memory-edit-store.ts';
import { MemoryRoomLog } from '../history/memory-room-log.ts';
import { MemoryAccessStore } from '../people/memory-access-store.ts';
import { MemoryTicketStore } from '../people/memory-ticket-store.ts';
import { MemoryUserStore } from '../people/memory-user-store.ts';
import { openUserStore } from '../people/open-user-store.ts';
import type { UserStore } from '../people/user-store.ts';
import { MemoryRoster } from '../presence/memory-roster.ts';
import { MemoryRoomBoard } from '../rooms/memory-room-board.ts';
import { MemorySceneStore } from '../scenes/memory-scene-store.ts';
import { MemoryResultPins, MemorySnapshotStore } from '../snapshots/memory-snapshot-store.ts';
import { MemoryRemoteSpecimens } from '../remote/memory-remote-specimens.ts';
import { closeAll, type HomeDeps, type StoreHomes } from './store-homes.ts';

/** Characters of snapshot records a host keeps in memory at least (else a quarter of its byte budget). */
const MIN_SNAPSHOT_BYTES = 64 * 1024 * 1024;

/** The data dir's users, or (when its store cannot be opened) none, said once in the log: the host still serves open rooms. */
function dataDirUsers(dataDir: string | null, warn: HomeDeps['warn']): UserStore {
  try {
    return openUserStore({ dataDir });
  } catch (error) {
    warn(`users: the store in ${dataDir} cannot be opened; no user's token will be known`, error);
    return new MemoryUserStore();
  }
}

export function memoryHomes({ options, events, budget, warn }: HomeDeps): StoreHomes {
  const log = new MemoryRoomLog(options.logTtlSeconds);
  const board = new MemoryRoomBoard(events, options.cacheTtlSeconds, log);
  const annotations = new MemoryAnnotationStore(
    events,
    { maxPerRoom: options.maxAnnotations, maxPerHost: Math.max(DEFAULT_MAX_PER_HOST, options.maxAnnotations) },
    log,
  );
  // Snapshots never give way to each other: past these bounds a new one is refused (507).
  const snapshots = new MemorySnapshotStore(log, Math.max(MIN_SNAPSHOT_BYTES, budget.maxBytes / 4));
  const pins = new MemoryResultPins(budget);
  return {
    log,
    board,
    scenes: new MemorySceneStore(events, log),
    annotations,
    edits: new MemoryEditStore(events, log),
    snapshots,
    pins,
    share: null,
    remoteSpecimens: new MemoryRemoteSpecimens(),
    people: { users: dataDirUsers(options.dataDir, warn), tickets: new MemoryTicketStore(), access: new MemoryAccessStore(log) },
    roster: new MemoryRoster((roomId, event, data) => board.announce(roomId, event, data)),
    relay: null,
    clientIds: new MemoryClientIds(),
    agentRelay: null,
    close: closeAll(snapshots, pins, annotations, log),
  };
}
