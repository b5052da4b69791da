/**
 * @module memory-remote-specimens
 * Remote specimens kept in this host's memory only (`--data-dir none`, and tests): gone with
 * the process.
 */
import type { RemoteSpecimenRecord, RemoteSpecimenStore } from './remote-specimen-store.ts';

export class MemoryRemoteSpecimens implements RemoteSpecimenStore {
  readonly #records = new Map<string, RemoteSpecimenRecord>();
  #version = 0;

  async version(): Promise<string> {
    return String(this.#version);
  }

  async list(): Promise<RemoteSpecimenRecord[]> {
    return [...this.#records.values()];
  }

  async put(record: RemoteSpecimenRecord): Promise<boolean> {
    const replaced = this.#records.has(record.id);
    this.#records.set(record.id, structuredClone(record));
    this.#version++;
    return replaced;
  }

  async remove(id: string): Promise<boolean> {
    const removed = this.#records.delete(id);
    if (removed) this.#version++;
    return removed;
  }
}
