/**
 * @module routes-annotation-items
 * One annotation of a room: `GET`, `PATCH` (the fields given; `null` removes one) and `DELETE`
 * (204) `/api/rooms/{room_id}/annotations/{id}`, where `If-Match: "<version>"` makes a change or
 * a removal answer 412 when the annotation moved past that version. Its answers carry its
 * version as `ETag`, so the next `If-Match` is what the last answer said. What the routes of a
 * room's list (routes-annotations.ts) share with these is here too.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AnnotationForms } from '../../annotations/annotation-forms.ts';
import { checkPatch } from '../../annotations/annotation-patch.ts';
import type { AnnotationStore } from '../../annotations/annotation-store.ts';
import { createHostError } from '../../errors.ts';
import type { HostContext } from '../../host-context.ts';
import type { RoomMarkUnits } from '../../exports/room-mark-units.ts';
import { requestIdentity } from '../../people/request-user.ts';
import { roomOf } from '../request-input.ts';
import { ifMatchHeader, roomItemParams } from '../route-inputs.ts';

/** What the annotation routes read from their host; `units` names the units of a room's frames for its exports. */
export type AnnotationRouteDeps = Pick<HostContext, 'options' | 'files'> & {
  annotations: AnnotationStore;
  forms: AnnotationForms;
  units: Pick<RoomMarkUnits, 'of'>;
};

type OneParams = { Params: { room_id: string; id: string } };

const ONE_PARAMS = roomItemParams('id', { type: 'string', maxLength: 64, description: 'The annotation id (the host made it)' });
const IF_MATCH = ifMatchHeader('The annotation version the change is for, in quotes ("3"): 412 when it moved on');

/** The fields an annotation may have, as the routes describe them. */
export const FIELDS_TEXT =
  'kind (point, line, polyline, box, ellipsoid) and points ([x, y, z] in physical units: one; two ends; two or more vertices; two opposite corners; a ' +
  'centre then its radii), ' +
  'optionally layer (a layer id: the points are in its frame, else in the room’s), label (≤ 256 characters), color (#rrggbb), properties (≤ 16 names, ' +
  'each a number or a string ≤ 256) and author (≤ 64)';

/** The version `If-Match` names, undefined without one (`*` is any version). */
export function ifMatchOf(request: FastifyRequest): number | undefined {
  const raw = request.headers['if-match'];
  if (raw === undefined) return undefined;
  const text = (Array.isArray(raw) ? raw.join(',') : raw).trim();
  if (text === '*') return undefined;
  const match = /^(?:W\/)?"?(\d{1,15})"?$/.exec(text);
  if (!match) throw createHostError('SPC_ERR_ANNOTATION_IF_MATCH', text);
  return Number(match[1]);
}

/** One annotation, its version as the ETag. */
export function sendOne(reply: FastifyReply, annotation: { version: number }): FastifyReply {
  return reply.header('etag', `"${annotation.version}"`).header('cache-control', 'no-cache').send(annotation);
}

/** `GET`, `PATCH` and `DELETE` of one annotation. */
export function annotationItemRoutes(app: FastifyInstance, ctx: AnnotationRouteDeps): void {
  app.get<OneParams>(
    '/api/rooms/:room_id/annotations/:id',
    { schema: { summary: 'One annotation (its version as the ETag)', params: ONE_PARAMS } },
    async (request, reply) => {
      const roomId = roomOf(ctx, request.params.room_id);
      const annotation = await ctx.annotations.get(roomId, request.params.id);
      if (!annotation) throw createHostError('SPC_ERR_ANNOTATION_NOT_FOUND', request.params.id, roomId);
      return sendOne(reply, annotation);
    },
  );

  app.patch<OneParams & { Body: unknown }>(
    '/api/rooms/:room_id/annotations/:id',
    {
      schema: {
        summary: 'Change an annotation',
        description: `Any of ${FIELDS_TEXT}; null removes an optional field, properties are replaced whole. With If-Match: "<version>", 412 when someone ` +
          `changed it first. Answers the annotation (version + 1).`,
        params: ONE_PARAMS,
        headers: IF_MATCH,
        body: { type: 'object', description: 'The fields to change' },
      },
    },
    async (request, reply) => {
      const roomId = roomOf(ctx, request.params.room_id);
      const expected = ifMatchOf(request);
      const patch = checkPatch(request.body);
      // Who wrote a mark is the host's to say once it knows who asks.
      if (requestIdentity(request)) delete patch.author;
      const { annotation } = await ctx.annotations.change(roomId, request.params.id, patch, expected);
      return sendOne(reply, annotation);
    },
  );

  app.delete<OneParams>(
    '/api/rooms/:room_id/annotations/:id',
    {
      schema: {
        summary: 'Remove an annotation (204)',
        description: 'With If-Match: "<version>", 412 when someone changed it first; 404 when the room holds no such annotation.',
        params: ONE_PARAMS,
        headers: IF_MATCH,
      },
    },
    async (request, reply) => {
      await ctx.annotations.remove(roomOf(ctx, request.params.room_id), request.params.id, ifMatchOf(request));
      return reply.code(204).send();
    },
  );
}
