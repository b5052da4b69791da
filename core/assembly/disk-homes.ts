/**
 * @module disk-homes
 * The stores of a lone host with a data folder: every one in the folder's one store
 * (core/durable/), over the same room log, so a change of a room and its log entry are one
 * transaction, flushed once before the change is answered; the bytes snapshots pin and
 * published files in the folder's blob store. Users are the folder's (shared with
 * `vitrine users`); stream tickets live a minute, in memory.
 */
import { DiskClientIds } from '../agent/disk-client-ids.ts';
import { DiskAnnotationStore } from '../annotations/disk-annotation-store.ts';
import { DiskEditStore } from '../edits/disk-edit-store.ts';
import { BlobResultPins } from '../snapshots/blob-result-pins.ts';
import { DiskRoomLog } from '../history/disk-room-log.ts';
import { DiskAccessStore } from '../people/disk-access-store.ts';
import { MemoryTicketStore } from '../people/memory-ticket-store.ts';
import { openUserStore } from '../people/open-user-store.ts';
import { MemoryRoster } from '../presence/memory-roster.ts';
import { DiskPublished } from '../published/disk-published.ts';
import { DiskRoomBoard } from '../rooms/disk-room-board.ts';
import { DiskRemoteSpecimens } from '../remote/disk-remote-specimens.ts';
import { DiskSceneStore } from '../scenes/disk-scene-store.ts';
import { DiskSnapshotStore } from '../snapshots/disk-snapshot-store.ts';
import type { DurableData } from './open-durable.ts';
import { closeAll, type HomeDeps, type StoreHomes } from './store-homes.ts';

export function diskHomes({ options, events }: HomeDeps, data: DurableData): StoreHomes {
  const { store } = data;
  const log = new DiskRoomLog(store, options.logTtlSeconds);
  const board = new DiskRoomBoard(store, events, options.cacheTtlSeconds, log);
  const annotations = new DiskAnnotationStore(store, events, options.maxAnnotations, log);
  const snapshots = new DiskSnapshotStore(store, log);
  const pins = new BlobResultPins(data.blobs);
  return {
    log,
    board,
    scenes: new DiskSceneStore(store, events, log),
    annotations,
    edits: new DiskEditStore(store, events, log),
    snapshots,
    pins,
    share: new DiskPublished(store),
    remoteSpecimens: new DiskRemoteSpecimens(store),
    people: { users: openUserStore({ data: store }), tickets: new MemoryTicketStore(), access: new DiskAccessStore(store, log) },
    roster: new MemoryRoster((roomId, event, eventData) => board.announce(roomId, event, eventData)),
    relay: null,
    clientIds: new DiskClientIds(store),
    agentRelay: null,
    close: closeAll(snapshots, pins, annotations, log),
  };
}
