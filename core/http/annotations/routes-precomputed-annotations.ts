/**
 * @module routes-precomputed-annotations
 * A room's annotations in Neuroglancer's precomputed annotation format, one collection per
 * geometry type, so a stock Neuroglancer opens
 * `precomputed://http://HOST/api/rooms/{room_id}/annotations/precomputed/point` (or `line`,
 * `axis_aligned_bounding_box`, `ellipsoid`). Keys: `info`, `by_id/<uint64 id>` and the one
 * spatial cell `spatial0/0_0_0` (annotations/precomputed-collection.ts says what each holds).
 * A type the room has none of is an empty collection. The answers change with the room, so
 * they are `no-cache`; any origin may read them, as every GET (Neuroglancer reads from its
 * own page's origin).
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { AnnotationForms } from '../../annotations/annotation-forms.ts';
import { isPrecomputedType, PRECOMPUTED_TYPES, type PrecomputedType } from '../../annotations/precomputed-entries.ts';
import { createHostError } from '../../errors.ts';
import type { HostContext } from '../../host-context.ts';
import { roomOf } from '../request-input.ts';
import { ROOM_ID_PATH } from '../route-inputs.ts';

type KeyRequest = { Params: { room_id: string; type: string; key?: string } };

const PARAMS = {
  type: 'object',
  required: ['room_id', 'type'],
  properties: {
    room_id: ROOM_ID_PATH,
    type: { type: 'string', description: PRECOMPUTED_TYPES.join(', ') },
    key: { type: 'string', description: 'A uint64 annotation id (by_id) or the cell 0_0_0 (spatial0)' },
  },
};
const MAX_UINT64 = (1n << 64n) - 1n;

/** What the precomputed routes read from their host. */
export type PrecomputedRouteDeps = Pick<HostContext, 'options'> & { forms: AnnotationForms };

function typeOf(raw: string, key: string): PrecomputedType {
  if (!isPrecomputedType(raw)) throw createHostError('SPC_ERR_PRECOMPUTED_KEY_NOT_FOUND', `${raw}/${key}`);
  return raw;
}

function binary(reply: FastifyReply, bytes: Buffer): FastifyReply {
  return reply.header('cache-control', 'no-cache').type('application/octet-stream').send(bytes);
}

export async function precomputedAnnotationRoutes(app: FastifyInstance, { ctx }: { ctx: PrecomputedRouteDeps }): Promise<void> {
  const base = '/api/rooms/:room_id/annotations/precomputed/:type';
  const described = (summary: string) => ({ schema: { summary, params: PARAMS } });

  app.get<KeyRequest>(
    `${base}/info`,
    described("A room's annotations of one type as a Neuroglancer precomputed collection: its info"),
    async (request, reply) => {
      const type = typeOf(request.params.type, 'info');
      const { collection } = await ctx.forms.collection(roomOf(ctx, request.params.room_id), type);
      return reply.header('cache-control', 'no-cache').type('application/json').send(JSON.stringify(collection.info));
    },
  );

  app.get<KeyRequest>(`${base}/by_id/:key`, described('One annotation of a precomputed collection by its uint64 id'), async (request, reply) => {
    const key = request.params.key ?? '';
    const type = typeOf(request.params.type, `by_id/${key}`);
    const id = /^\d{1,20}$/.test(key) ? BigInt(key) : null;
    const { collection, byId } = await ctx.forms.collection(roomOf(ctx, request.params.room_id), type);
    const entry = id !== null && id <= MAX_UINT64 ? byId.get(id) : undefined;
    if (!entry) throw createHostError('SPC_ERR_PRECOMPUTED_KEY_NOT_FOUND', `${type}/by_id/${key}`);
    return binary(reply, collection.encodeOne(entry));
  });

  app.get<KeyRequest>(
    `${base}/spatial0/:key`,
    described("The precomputed collection's one spatial cell (0_0_0): every annotation of the type"),
    async (request, reply) => {
      const key = request.params.key ?? '';
      const type = typeOf(request.params.type, `spatial0/${key}`);
      if (key !== '0_0_0') throw createHostError('SPC_ERR_PRECOMPUTED_KEY_NOT_FOUND', `${type}/spatial0/${key}`);
      const { collection } = await ctx.forms.collection(roomOf(ctx, request.params.room_id), type);
      return binary(reply, collection.encodeAll());
    },
  );
}
