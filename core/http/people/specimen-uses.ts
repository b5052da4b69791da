/**
 * @module specimen-uses
 * The rooms a request uses through the specimen its path names (`/api/specimens/{id}` and
 * everything under it), for the people hook: a specimen published for a room is read by reading
 * the room (a refused read answers as for no such specimen), and `PUT` and `DELETE` of it write
 * the room too (people/specimen-access.ts says whose a specimen is).
 */
import type { FastifyRequest } from 'fastify';
import { createHostError } from '../../errors.ts';
import type { RoomUse } from '../../people/room-access.ts';
import { roomUsesOf, unknownSpecimen, type RoomSpecimen } from '../../people/specimen-access.ts';
import { routeOf } from '../route-of.ts';

const SPECIMEN_ROUTE = '/api/specimens/:id';

/** The uses of its room a request makes of the specimen its path names; `specimenOf` finds it. */
export function specimenUses(request: FastifyRequest, specimenOf: (id: string) => RoomSpecimen | undefined): RoomUse[] {
  const url = routeOf(request).url;
  if (url === undefined || !url.startsWith(SPECIMEN_ROUTE)) return [];
  const id = (request.params as { id?: unknown } | undefined)?.id;
  if (typeof id !== 'string') return [];
  const writes = url === SPECIMEN_ROUTE && (request.method === 'PUT' || request.method === 'DELETE');
  // Removing one the request may not read answers as removing one that is not there.
  const hidden = writes && request.method === 'DELETE' ? () => createHostError('SPC_ERR_PUBLISHED_NOT_FOUND', id) : unknownSpecimen(id);
  return roomUsesOf(specimenOf(id), writes, hidden);
}
