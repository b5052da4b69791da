/**
 * @module routes-provenance
 * What made what a room shows: `GET /api/rooms/{room_id}/provenance` lists its entry's
 * provenance and every layer's (null for a layer not computed yet, or a static file).
 */
import type { FastifyInstance } from 'fastify';
import type { Provenance, RoomProvenance } from '../wire/provenance-types.ts';
import type { HostContext } from '../host-context.ts';
import { provenanceOf } from '../registry/provenance.ts';
import { roomOf } from './request-input.ts';
import { ROOM_PARAMS, type RoomParams } from './route-inputs.ts';

export type ProvenanceRouteDeps = Pick<HostContext, 'options' | 'scenes' | 'rooms' | 'functions'>;

/** The room's provenance: its layers' as their results recorded it; its entry's from its active layer, else its function. */
export async function roomProvenance(ctx: ProvenanceRouteDeps, roomId: string): Promise<RoomProvenance> {
  const [scene, entry] = await Promise.all([ctx.scenes.scene(roomId), ctx.rooms.entry(roomId)]);
  const layers = scene.layers.map((layer) => ({ id: layer.id, provenance: layer.result?.provenance ?? null }));
  let shown: Provenance | null = scene.layers.find((layer) => layer.id === scene.active)?.result?.provenance ?? null;
  if (entry?.function_name && (!shown || shown.function !== entry.function_name)) {
    const fn = ctx.functions.get(entry.function_name);
    shown = fn ? provenanceOf(fn, entry.params) : null;
  }
  return { room: roomId, entry: entry?.function_name ? shown : null, layers };
}

export async function provenanceRoutes(app: FastifyInstance, opts: { ctx: ProvenanceRouteDeps }): Promise<void> {
  const { ctx } = opts;
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
