/**
 * @module acting-user
 * Who the work in progress is done for: set once per request (by the people hook, around the
 * rest of the request's life) and read where a room event is sent, so that every change of a
 * scene, a layer, a view or an entry carries `by` without each store and route handing the name
 * down. Work a request starts and that ends later (a computation's result) is still its
 * user's (`anonymous` for a request that names nobody); work no request started carries no `by`.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { ROOM_CHANNEL_PREFIX } from './channels.ts';

const acting = new AsyncLocalStorage<string>();

/** The events of a room that say who made them. */
const STAMPED = new Set(['scene', 'view', 'result', 'computing', 'failed', 'annotation', 'snapshot']);

/** Runs `work` (and all it starts) as done by `name`. */
export function runAs<T>(name: string, work: () => T): T {
  return acting.run(name, work);
}

/** Who the current work is done for, or undefined outside any identified request. */
export function actingUser(): string | undefined {
  return acting.getStore();
}

/** A room event's data with `by` added, when someone is acting and the data has no `by` of its own. */
export function stampedData(event: string, data: unknown): unknown {
  if (!STAMPED.has(event) || typeof data !== 'object' || data === null || Array.isArray(data) || 'by' in data) return data;
  const by = acting.getStore();
  return by === undefined ? data : { ...data, by };
}

/**
 * `value` saying who makes it (`by`): the user the work in progress is done for, or nothing
 * outside any request; whatever `value` said of that itself (a body, a recorded copy) is dropped.
 */
export function madeByActing<T extends object>(value: T): T & { by?: string } {
  const { by: _said, ...rest } = value as T & { by?: string };
  const by = acting.getStore();
  return (by === undefined ? rest : { ...rest, by }) as T & { by?: string };
}

/** Whether a hub channel is a room's. */
export function isRoomChannel(channel: string): boolean {
  return channel.startsWith(ROOM_CHANNEL_PREFIX);
}
