/**
 * @module disk-edit-store
 * A lone host's labels edits in its data folder (the `edits` database): each under
 * `[room, layer, version]`, written in one transaction with its entry in the room's log, so an
 * acknowledged edit and its entry are both on disk after any crash and an unacknowledged one is
 * neither; its event goes out once the transaction is flushed.
 */
import type { DataStore } from '../durable/data-store.ts';
import { DISK } from '../durable/disk-keys.ts';
import { roomChannel } from '../events/channels.ts';
import type { EventHub } from '../events/event-hub.ts';
import type { LogWriter } from '../history/room-log-store.ts';
import { LABELS_EVENT, type EditRecord } from '../wire/edit-types.ts';
import { editChange, type EditDraft, type EditStore } from './edit-store.ts';

export class DiskEditStore implements EditStore {
  #store: DataStore;
  #hub: Pick<EventHub, 'publish'>;
  #log: LogWriter;

  constructor(store: DataStore, hub: Pick<EventHub, 'publish'>, log: LogWriter) {
    this.#store = store;
    this.#hub = hub;
    this.#log = log;
  }

  get #db() {
    return this.#store.db<EditRecord>(DISK.edits.name);
  }

  /** The layer's version: its last edit's (0 with none). */
  #version(roomId: string, layerId: string): number {
    // Newest first, down to (not with) version 0, which no edit has.
    const { start, end } = DISK.edits.after(roomId, layerId, -1);
    for (const key of this.#db.getKeys({ start: end, end: start, reverse: true, limit: 1 })) return Number((key as (string | number)[])[2]);
    return 0;
  }

  async append(roomId: string, layerId: string, expected: number, drafts: readonly EditDraft[]): Promise<EditRecord[] | null> {
    const records = await this.#store.write(() => {
      if (this.#version(roomId, layerId) !== expected) return null;
      return drafts.map((draft, k) => {
        const entry = this.#log.appendNow(roomId, editChange(layerId, expected + 1 + k, draft)) as unknown as EditRecord;
        void this.#db.put(DISK.edits.edit(roomId, layerId, expected + 1 + k), entry);
        return entry;
      });
    });
    for (const data of records ?? []) this.#hub.publish(roomChannel(roomId), { event: LABELS_EVENT, data });
    return records;
  }

  async after(roomId: string, layerId: string, version: number): Promise<EditRecord[]> {
    return [...this.#db.getRange(DISK.edits.after(roomId, layerId, version)).map(({ value }) => value)];
  }

  close(): void {}
}
