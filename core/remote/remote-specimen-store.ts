/**
 * @module remote-specimen-store
 * Where the specimens published from remotes are kept: what each was published as (the
 * reference `NAME/path`, level, channel, time step, role and catalog fields) and when, never
 * the image's bytes, which stay where they live. Three homes side by side: this host's memory
 * (memory-remote-specimens.ts), a lone host's data folder (disk-remote-specimens.ts: there
 * after a restart, and after kill -9 for every publish answered) and a Redis service
 * (redis-remote-specimens.ts: every host of the service lists them). A version moved by every
 * change tells a host when to read the list again.
 */
import { isRecord } from '../wire/json-object.ts';
import type { RemotePublishInput } from './remote-publish-input.ts';

export interface RemoteSpecimenRecord {
  id: string;
  input: RemotePublishInput;
  /** Milliseconds since the epoch. */
  published_at: number;
}

export interface RemoteSpecimenStore {
  /** Moves with every put and remove (on any host sharing the store). */
  version(): Promise<string>;
  list(): Promise<RemoteSpecimenRecord[]>;
  /** Keeps `record` (durably where the home is: answered means kept); true when it replaced one of that id. */
  put(record: RemoteSpecimenRecord): Promise<boolean>;
  /** False when there was none of that id. */
  remove(id: string): Promise<boolean>;
}

/** Whether `value` reads as a stored record (what another host, or an older version, wrote). */
export function isRemoteSpecimenRecord(value: unknown): value is RemoteSpecimenRecord {
  if (!isRecord(value) || typeof value.id !== 'string' || typeof value.published_at !== 'number' || !isRecord(value.input)) return false;
  const { remote, level, tags } = value.input;
  return typeof remote === 'string' && typeof level === 'number' && Array.isArray(tags);
}
