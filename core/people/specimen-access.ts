/**
 * @module specimen-access
 * A specimen published for a room (`room.add(array)` publishes `<room>.<name>` with `?room=`) is
 * that room's, and follows the room's access wherever a request names it: read by whoever may
 * read the room, replaced or removed by whoever may write it. To anyone the room refuses a read,
 * it answers as a specimen that does not exist (404 `SPC_ERR_SPECIMEN_NOT_FOUND`, or the unknown
 * input of a function's parameter), so neither it nor its room's name is confirmed. Each is one
 * room's: to show it in another room, publish it there too. The one place every door of a
 * published specimen asks: the people hook for the routes that name it in their path (the uses
 * of http/people/specimen-uses.ts), and what names it deep below a route (a room's entry, a layer's
 * source, a function's input, an agent's tool, publishing over it) through the request's context.
 */
import { actingCheck } from '../events/acting-user.ts';
import { createHostError, isHostError, type HostError } from '../errors.ts';
import type { RoomUse } from './room-access.ts';

/** What of a specimen says whose it is. */
export interface RoomSpecimen {
  id: string;
  /** The room it was published for; absent for a specimen published for everyone (or not published). */
  room?: string;
}

/** The answer to whoever may not read the room of specimen `id`: as for no such specimen. */
export const unknownSpecimen = (id: string) => (): HostError => createHostError('SPC_ERR_SPECIMEN_NOT_FOUND', id);

/** Whether `error` is a room's refusal of a read (its 404). */
function refusedRead(error: unknown): boolean {
  return isHostError(error) && error.code === 'SPC_ERR_ROOM_NOT_VISIBLE';
}

/** The uses of its room a request makes of `record`: a read (hidden when refused), and a write when it changes the specimen. */
export function roomUsesOf(record: RoomSpecimen | undefined, writes: boolean, hidden = unknownSpecimen(record?.id ?? '')): RoomUse[] {
  if (record?.room === undefined) return [];
  const read: RoomUse = { room: record.room, want: 'read', hidden };
  return writes ? [read, { room: record.room, want: 'write' }] : [read];
}

/** `error` as a use answers it: a room's 404 becomes the use's own answer when it hides its room. */
export function asUseAnswers(use: { hidden?: () => HostError }, error: unknown): unknown {
  return use.hidden && refusedRead(error) ? use.hidden() : error;
}

/**
 * Throws as for no such specimen (`hidden`, by default `SPC_ERR_SPECIMEN_NOT_FOUND`) when the
 * request being served may not read the room `record` was published for; with `writes`, the
 * room's refusal (401 or 403) when it may read but not write it. Work no request made may.
 */
export async function checkSpecimenUse(record: RoomSpecimen | undefined, writes = false, hidden?: () => HostError): Promise<void> {
  const check = actingCheck();
  if (!check || record?.room === undefined) return;
  for (const use of roomUsesOf(record, writes, hidden ?? unknownSpecimen(record.id))) {
    // A try rather than .catch(): a check that throws before it returns a promise is mapped too.
    try {
      await check(use.room, use.want);
    } catch (error) {
      throw asUseAnswers(use, error);
    }
  }
}

/**
 * Whether the request being served may read one of `rooms` (null: a thing of no room, which
 * anyone may read), by the same check as a specimen's room; a fault other than a room's refusal
 * of the read is thrown. Work no request made may.
 */
export async function mayReadOneOf(rooms: readonly string[] | null): Promise<boolean> {
  const check = actingCheck();
  if (!check || rooms === null) return true;
  for (const room of new Set(rooms)) {
    try {
      await check(room, 'read');
      return true;
    } catch (error) {
      if (!refusedRead(error)) throw error;
    }
  }
  return false;
}

/** Throws the room's refusal when the request being served may not publish into room `roomId` (a write of it). */
export async function checkPublishInto(roomId: string | undefined): Promise<void> {
  const check = actingCheck();
  if (check && roomId !== undefined) await check(roomId, 'write');
}
