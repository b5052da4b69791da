/**
 * @module room-blob
 * A peer's result by its blob URL. When the viewer shows a room entry that another peer's
 * request made, and the entry names its blob, the bytes come from `/api/blobs/{blob_id}`:
 * immutable, so the browser's cache (and any HTTP cache on the way) keeps them, and showing
 * the same result again costs the host no request. The viewer's own requests still go through
 * `/data`: only they may change the room's entry.
 *
 * The blob is the result in its default form. A volume is still drawn coarse first (the coarse
 * delivery comes from the room cache through `/data`) and refined from the blob; anything else
 * is drawn from the blob at once. A blob the host no longer holds (404) falls back to `/data`.
 * In VR the page asks for a budgeted delivery, which no blob of the entry names, so it asks `/data`.
 */
import type { SpecimenData } from '../../core/wire/decoded-types.ts';
import { VitrineHttpError } from '../../core/client/errors.ts';
import type { RoomEntry } from '../../core/wire/room-types.ts';
import type { CoarseFirstSteps } from '../coarse-first.ts';
import { stableJson } from '../../core/wire/stable-json.ts';
import type { RoomSubject } from './room-follower.ts';

/** The subject an entry names, as text: function, specimen and values (key order ignored). */
function keyOf(subject: RoomSubject): string {
  return stableJson([subject.function_name, subject.specimen_id, subject.params]);
}

/**
 * Whether the page asking for `subject` asks for the entry keyed `key`. An entry a function's
 * layer made names no specimen, and the page shows that function through the specimen that
 * runs it: that is still the entry, so its specimen is left out of the comparison then.
 */
function asksFor(key: string, entryNamesSpecimen: boolean, subject: RoomSubject): boolean {
  return key === keyOf(entryNamesSpecimen ? subject : { ...subject, specimen_id: null });
}

/**
 * The room entry the viewer is about to show because a peer put it there. `expect` notes it
 * when the viewer adopts a peer's entry; the next request takes it only if it asks for that very
 * entry (a parameter change in between, or another subject, forgets it). Such a request is the
 * room's echo, not an ask of the room: it loads the entry's blob when there is one, and says it
 * follows when it must ask `/data`.
 */
export class AdoptedBlob {
  #pending: { key: string; namesSpecimen: boolean; blobId: string | null } | null = null;

  /** The viewer adopts `entry`: its next request may load the entry's blob. */
  expect(entry: RoomEntry): void {
    this.#pending = { key: keyOf(entry), namesSpecimen: entry.specimen_id !== null, blobId: entry.blob_id ?? null };
  }

  /** The adopted entry's blob id (null when it names none) if `subject` is that entry, else null; forgets it either way. */
  take(subject: RoomSubject | null): { blobId: string | null } | null {
    const pending = this.#pending;
    this.#pending = null;
    return pending && subject && asksFor(pending.key, pending.namesSpecimen, subject) ? { blobId: pending.blobId } : null;
  }
}

/**
 * How a request whose entry names `blobId` loads: the type coarse-first refines, and the steps.
 * `loaded` hears that the blob came: no room result will follow, since nothing was computed.
 */
export function viaBlob(
  blobId: string | null,
  type: string,
  steps: CoarseFirstSteps,
  load: (blobId: string, signal?: AbortSignal) => Promise<SpecimenData>,
  loaded: () => void,
): { type: string; steps: CoarseFirstSteps } {
  if (blobId === null) return { type, steps };
  const orData = async (viaData: () => Promise<SpecimenData>, signal?: AbortSignal): Promise<SpecimenData> => {
    try {
      const data = await load(blobId, signal);
      loaded();
      return data;
    } catch (error) {
      if (error instanceof VitrineHttpError && error.status === 404) return viaData();
      throw error;
    }
  };
  if (type === 'volume')
    return { type, steps: { ...steps, full: (delivery, signal) => orData(() => steps.full(delivery, signal), signal) } };
  return { type: 'none', steps: { ...steps, first: (delivery, answered) => orData(() => steps.first(delivery, answered)) } };
}
