/**
 * @module acting-user
 * Who the work in progress is done for: set once per request (by the people hook, around the
 * rest of the request's life) and read where a room event is sent, so that every change of a
 * scene, a layer, a view or an entry carries `by` without each store and route handing the name
 * down. Work a request starts and that ends later (a computation's result) is still its
 * user's (`anonymous` for a request that names nobody); work no request started carries no `by`.
 * The same context says what rooms let the request do, for what it names deep below its route
 * (a room's published specimen as a layer's source or an input: people/specimen-access.ts).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { ROOM_CHANNEL_PREFIX } from './channels.ts';

/**
 * Who the work in progress is done for, and, for a request, what rooms let it do: `check` throws
 * the room's refusal (a read refused is the room's 404) when the request may not `want` the room.
 * Work no request made (a replay writing another room's changes) has no `check`: it may.
 */
export interface Acting {
  readonly name: string;
  readonly check?: (roomId: string, want: 'read' | 'write') => Promise<void>;
  /** Whether the request may `want` the room, without a refusal (a promise only when its access must be fetched). */
  readonly may?: (roomId: string, want: 'read' | 'write') => boolean | Promise<boolean>;
}

const acting = new AsyncLocalStorage<Acting>();

/** The events of a room that say who made them. */
const STAMPED = new Set(['scene', 'view', 'result', 'computing', 'failed', 'annotation', 'snapshot']);

/** Runs `work` (and all it starts) as done by `actor` (a name: work no request made). */
export function runAs<T>(actor: string | Acting, work: () => T): T {
  return acting.run(typeof actor === 'string' ? { name: actor } : actor, work);
}

/** Who the current work is done for, or undefined outside any identified request. */
export function actingUser(): string | undefined {
  return acting.getStore()?.name;
}

/**
 * Runs `work` as the current work without its request's room checks: the host resolving what a
 * room already holds (a layer's source, its entry), which whoever put it there was checked for.
 */
export function asRoomsOwn<T>(work: () => T): T {
  const current = acting.getStore();
  return current?.check ? acting.run({ name: current.name }, work) : work();
}

/** What rooms let the request being served do (see {@link Acting}), or undefined for work no request made. */
export function actingCheck(): Acting['check'] {
  return acting.getStore()?.check;
}

/** Whether the request being served may `want` room `roomId` (work no request made may). */
export function actingMay(roomId: string, want: 'read' | 'write'): boolean | Promise<boolean> {
  return acting.getStore()?.may?.(roomId, want) ?? true;
}

/** A room event's data with `by` added, when someone is acting and the data has no `by` of its own. */
export function stampedData(event: string, data: unknown): unknown {
  if (!STAMPED.has(event) || typeof data !== 'object' || data === null || Array.isArray(data) || 'by' in data) return data;
  const by = acting.getStore()?.name;
  return by === undefined ? data : { ...data, by };
}

/**
 * `value` saying who makes it (`by`): the user the work in progress is done for, or nothing
 * outside any request; whatever `value` said of that itself (a body, a recorded copy) is dropped.
 */
export function madeByActing<T extends object>(value: T): T & { by?: string } {
  const { by: _said, ...rest } = value as T & { by?: string };
  const by = acting.getStore()?.name;
  return (by === undefined ? rest : { ...rest, by }) as T & { by?: string };
}

/** Whether a hub channel is a room's. */
export function isRoomChannel(channel: string): boolean {
  return channel.startsWith(ROOM_CHANNEL_PREFIX);
}
