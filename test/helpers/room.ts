/**
 * @module room
 * Rooms for tests: each test works in a room no other test (nor an earlier run on the same
 * Redis) uses, so hosts and services shared by a file never mix their entries up; and the one
 * way to write a viewer link into a room.
 */
import { randomUUID } from 'node:crypto';

/** A room id no other test uses: `<prefix>-<uuid>`; a prefix naming what the room is for reads better in logs. */
export function room(prefix = 'room'): string {
  return `${prefix}-${randomUUID()}`;
}

/** What a viewer link names: a specimen or none, a room, its parameters, whether to follow the room. */
export interface ViewerLink {
  specimen?: string;
  room: string;
  params?: object;
  follow?: boolean;
  /** More query fields, as they are (e.g. `xr`). */
  extra?: Record<string, string>;
}

/** The viewer's query string for `link` (`?specimen=…&room=…&params=…&follow=1`), parameters as JSON. */
export function viewerQuery(link: ViewerLink): string {
  const query = new URLSearchParams();
  if (link.specimen !== undefined) query.set('specimen', link.specimen);
  query.set('room', link.room);
  if (link.params) query.set('params', JSON.stringify(link.params));
  if (link.follow) query.set('follow', '1');
  for (const [name, value] of Object.entries(link.extra ?? {})) query.set(name, value);
  return `?${query.toString()}`;
}
