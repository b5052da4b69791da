/**
 * @module disk-remote-specimens
 * Remote specimens of a lone host with a data folder: each record in the folder's store beside
 * a version every change moves, written in one transaction flushed before the publish is
 * answered, so a restart (or kill -9) lists every one answered.
 */
import type { DataStore } from '../durable/data-store.ts';
import { DISK } from '../durable/disk-keys.ts';
import { isRemoteSpecimenRecord, type RemoteSpecimenRecord, type RemoteSpecimenStore } from './remote-specimen-store.ts';

export class DiskRemoteSpecimens implements RemoteSpecimenStore {
  readonly #store: DataStore;

  constructor(store: DataStore) {
    this.#store = store;
  }

  get #db() {
    return this.#store.db<RemoteSpecimenRecord | number>(DISK.remoteSpecimens.name);
  }

  #bump(): void {
    this.#db.put(DISK.remoteSpecimens.version, Number(this.#db.get(DISK.remoteSpecimens.version) ?? 0) + 1);
  }

  async version(): Promise<string> {
    return String(this.#db.get(DISK.remoteSpecimens.version) ?? 0);
  }

  async list(): Promise<RemoteSpecimenRecord[]> {
    const all: RemoteSpecimenRecord[] = [];
    for (const { value } of this.#db.getRange(DISK.remoteSpecimens.all)) if (isRemoteSpecimenRecord(value)) all.push(value);
    return all;
  }

  put(record: RemoteSpecimenRecord): Promise<boolean> {
    return this.#store.write(() => {
      const key = DISK.remoteSpecimens.specimen(record.id);
      const replaced = this.#db.get(key) !== undefined;
      this.#db.put(key, record);
      this.#bump();
      return replaced;
    });
  }

  remove(id: string): Promise<boolean> {
    return this.#store.write(() => {
      const key = DISK.remoteSpecimens.specimen(id);
      if (this.#db.get(key) === undefined) return false;
      this.#db.remove(key);
      this.#bump();
      return true;
    });
  }
}
