/**
 * A tiny real fastify app serving records through the catalog's openers and core/http/send-opened.ts, with the
 * host's error shape, so the catalog's senders are tested over HTTP without the whole host.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import { ENVELOPE_MEDIA_TYPE } from '../../../core/envelope/media-type.ts';
import { isHostError } from '../../../core/errors.ts';
import { sendStaticData, sendThumbnail } from '../../../core/http/send-opened.ts';
import type { SpecimenRecord } from '../../../core/catalog/specimen-record.ts';

export function staticRecord(id: string, extra: Partial<SpecimenRecord> = {}): SpecimenRecord {
  return {
    id,
    display_name: id,
    description: '',
    type: 'mesh',
    tags: [],
    is_dynamic: false,
    function_name: null,
    thumbnail_file: null,
    thumbnail: { kind: 'none' },
    story: null,
    origin: 'disk',
    ...extra,
  };
}

export function catalogTestApp(records: SpecimenRecord[], envelopeMediaType = ENVELOPE_MEDIA_TYPE): FastifyInstance {
  const byId = new Map(records.map((r) => [r.id, r]));
  const app = Fastify();
  app.setErrorHandler((error, _request, reply) => {
    if (isHostError(error)) {
      return reply.code(error.statusCode).send({ status_code: error.statusCode, detail: error.message, code: error.code });
    }
    return reply.code(500).send({ status_code: 500, detail: String(error) });
  });
  const find = (id: string): SpecimenRecord => {
    const record = byId.get(id);
    if (!record) throw new Error(`test app has no record ${id}`);
    return record;
  };
  app.get<{ Params: { id: string } }>('/api/specimens/:id/data', (request, reply) =>
    sendStaticData(reply, find(request.params.id), { envelopeMediaType }),
  );
  app.get<{ Params: { id: string } }>('/api/specimens/:id/thumbnail', (request, reply) =>
    sendThumbnail(reply, find(request.params.id)),
  );
  return app;
}
