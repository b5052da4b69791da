/**
 * @module routes-provenance
 * What made what a room shows: `GET /api/rooms/{room_id}/provenance` lists its entry's
 * provenance and every layer's (null for a layer not computed yet, or a static file), as
 * exports/room-provenance.ts reads them.
 */
import type { FastifyInstance } from 'fastify';
import type { HostContext } from '../../host-context.ts';
import { roomProvenance } from '../../exports/room-provenance.ts';
import { roomOf } from '../request-input.ts';
import { ROOM_PARAMS, type RoomParams } from '../route-inputs.ts';

export type ProvenanceRouteDeps = Pick<HostContext, 'options' | 'scenes' | 'rooms' | 'functions'>;

export async function provenanceRoutes(app: FastifyInstance, { ctx }: { ctx: ProvenanceRouteDeps }): Promise<void> {
  app.get<RoomParams>(
    '/api/rooms/:room_id/provenance',
    {
      schema: {
        summary: 'What made what a room shows: its entry’s provenance and each layer’s',
        description:
          'Each provenance is `{"plugin", "version", "bundle", "function", "params" (defaults filled), "host"}`; null for a layer not computed ' +
          'yet or a static file, and for an entry that is none or a static specimen.',
        params: ROOM_PARAMS,
      },
    },
    async (request, reply) => reply.header('cache-control', 'no-cache').send(await roomProvenance(ctx, roomOf(ctx, request.params.room_id))),
  );
}
