/**
 * @module memory-edit-store
 * A host's labels edits in its memory (`--data-dir none`): a list per layer, each edit and its
 * log entry made in one turn, its event sent at once. Gone with the process.
 */
import { roomChannel } from '../events/channels.ts';
import type { EventHub } from '../events/event-hub.ts';
import type { LogWriter } from '../history/room-log-store.ts';
import { LABELS_EVENT, type EditRecord } from '../wire/edit-types.ts';
import { editChange, type EditDraft, type EditStore } from './edit-store.ts';

export class MemoryEditStore implements EditStore {
  #layers = new Map<string, EditRecord[]>();
  #hub: Pick<EventHub, 'publish'>;
  #log: LogWriter;

  constructor(hub: Pick<EventHub, 'publish'>, log: LogWriter) {
    this.#hub = hub;
    this.#log = log;
  }

  #edits(roomId: string, layerId: string): EditRecord[] {
    const key = JSON.stringify([roomId, layerId]);
    let edits = this.#layers.get(key);
    if (!edits) this.#layers.set(key, (edits = []));
    return edits;
  }

  async append(roomId: string, layerId: string, expected: number, drafts: readonly EditDraft[]): Promise<EditRecord[] | null> {
    const edits = this.#edits(roomId, layerId);
    if (edits.length !== expected) return null;
    const records = drafts.map((draft, k) => this.#log.appendNow(roomId, editChange(layerId, expected + 1 + k, draft)) as unknown as EditRecord);
    edits.push(...records);
    for (const data of records) this.#hub.publish(roomChannel(roomId), { event: LABELS_EVENT, data });
    return records;
  }

  async after(roomId: string, layerId: string, version: number): Promise<EditRecord[]> {
    return this.#edits(roomId, layerId).slice(Math.max(0, version));
  }

  close(): void {
    this.#layers.clear();
  }
}
