/**
 * @module routes-room-image
 * `GET /api/rooms/{room_id}/image?w=W&h=H`: a PNG of what the room shows with its view, drawn
 * on the encode thread (workspace/room-image.ts). Each side 1..2048 pixels, 512 when absent; a
 * bad one is a 400 naming it; a room that shows nothing a 404. Never cached: the room changes.
 * At most MAX_PICTURES are drawn or wait at once; past them a 503 with `Retry-After`.
 */
import type { FastifyInstance } from 'fastify';
import { pictureSide, PICTURE_SIDE, roomImage, type RoomImageDeps } from '../../exports/room-image.ts';
import { WorkGate } from '../../memory/work-gate.ts';
import { roomOf } from '../request-input.ts';
import { queryOf, ROOM_PARAMS } from '../route-inputs.ts';

type ImageRequest = { Params: { room_id: string }; Querystring: { w?: string; h?: string } };

const side = (what: string) => ({
  type: 'string',
  description: `The picture's ${what} in pixels, a whole number from 1 to ${PICTURE_SIDE.max} (default ${PICTURE_SIDE.default})`,
});
const IMAGE_QUERY = queryOf({ w: side('width'), h: side('height') });
const PNG_REPLY = { 200: { description: 'The picture', content: { 'image/png': { schema: { type: 'string', format: 'binary' } } } } };

/** Pictures drawn or waiting for the encode threads at once. */
export const MAX_PICTURES = 16;

export async function roomImageRoutes(app: FastifyInstance, { ctx }: { ctx: RoomImageDeps }): Promise<void> {
  const gate = new WorkGate('room pictures', MAX_PICTURES);
  app.get<ImageRequest>(
    '/api/rooms/:room_id/image',
    {
      schema: {
        summary: 'A picture (PNG) of what the room shows, with its view',
        description:
          "The room drawn on the host as the page draws it: each layer's mode, colour map, window and opacity, the room's camera " +
          "(else the page's framing), the room's marks and a scale bar (its label also in the PNG's `Scale bar` text). " +
          '404 when the room shows nothing.',
        params: ROOM_PARAMS,
        querystring: IMAGE_QUERY,
        response: PNG_REPLY,
      },
    },
    async (request, reply) => {
      const width = pictureSide('w', request.query.w);
      const height = pictureSide('h', request.query.h);
      const png = await gate.run(() => roomImage(ctx, roomOf(ctx, request.params.room_id), width, height));
      return reply.type('image/png').header('cache-control', 'no-cache').send(Buffer.from(png.buffer, png.byteOffset, png.byteLength));
    },
  );
}
