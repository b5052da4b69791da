/**
 * @module specimen-catalog
 * SpecimenCatalog: one view over every source of specimens (the specimens directory, plugin
 * declarations, code registrations, relayed workers). Each source is replaced as a whole
 * (a rescan, a reload, a worker's re-registration), so a source never leaves stale entries.
 * When two sources use one id, the first source in SOURCE_ORDER wins and the clash is logged.
 */
import type { SpecimenOrigin, SpecimenRecord } from '../catalog/specimen-record.ts';

const SOURCE_ORDER: SpecimenOrigin[] = ['code', 'disk', 'plugin', 'published', 'relay'];

export class SpecimenCatalog {
  #sources = new Map<string, { origin: SpecimenOrigin; records: SpecimenRecord[] }>();
  #merged: Map<string, SpecimenRecord> | null = null;
  #onClash: (id: string, kept: SpecimenRecord, dropped: SpecimenRecord) => void;

  constructor(onClash: (id: string, kept: SpecimenRecord, dropped: SpecimenRecord) => void = () => {}) {
    this.#onClash = onClash;
  }

  /** Replaces everything a source contributes (key e.g. `disk`, `plugin:shapes`, `relay:gpu1`). */
  setSource(key: string, origin: SpecimenOrigin, records: SpecimenRecord[]): void {
    this.#sources.set(key, { origin, records });
    this.#merged = null;
  }

  /** Adds one record to a source, keeping what it has. */
  addToSource(key: string, origin: SpecimenOrigin, record: SpecimenRecord): void {
    const source = this.#sources.get(key) ?? { origin, records: [] };
    source.records = [...source.records.filter((r) => r.id !== record.id), record];
    this.#sources.set(key, source);
    this.#merged = null;
  }

  removeSource(key: string): void {
    this.#sources.delete(key);
    this.#merged = null;
  }

  /** Removes every source whose key starts with `prefix` (e.g. `plugin:` before a reload). */
  removeSourcesWithPrefix(prefix: string): void {
    for (const key of [...this.#sources.keys()]) if (key.startsWith(prefix)) this.#sources.delete(key);
    this.#merged = null;
  }

  #merge(): Map<string, SpecimenRecord> {
    if (this.#merged) return this.#merged;
    const merged = new Map<string, SpecimenRecord>();
    const sources = [...this.#sources.entries()].sort(
      ([ka, a], [kb, b]) => SOURCE_ORDER.indexOf(a.origin) - SOURCE_ORDER.indexOf(b.origin) || ka.localeCompare(kb),
    );
    for (const [, source] of sources) {
      for (const record of source.records) {
        const kept = merged.get(record.id);
        if (kept) this.#onClash(record.id, kept, record);
        else merged.set(record.id, record);
      }
    }
    this.#merged = new Map([...merged.entries()].sort(([a], [b]) => a.localeCompare(b)));
    return this.#merged;
  }

  get(id: string): SpecimenRecord | undefined {
    return this.#merge().get(id);
  }

  list(): SpecimenRecord[] {
    return [...this.#merge().values()];
  }
}
