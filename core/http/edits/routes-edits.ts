/**
 * @module routes-edits
 * Edits of a room's labels layer: `POST /api/rooms/{room}/layers/{layer}/edits` (one edit: merge,
 * split, paint or names; 201 with what it changed, `If-Match: "<labels version>"` 412 when
 * stale), `POST .../edits/{seq}/undo` and `/redo` (a new edit by the caller; 409 naming the
 * later edits in the way), `GET .../edits?since=&limit=` (paged as the room's log, each with
 * `undone_by`) and `GET .../layers/{layer}/labels?version=V`: any version of the layer's
 * labels as `/data` sends a result (every format); its HEAD names the version (result id,
 * provenance) without making its voxels. Writes pass the room's access as every
 * write of a room does (the room is in the path).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { createHostError } from '../../errors.ts';
import type { HostContext } from '../../host-context.ts';
import type { EditAnswer } from '../../wire/edit-types.ts';
import type { LabelsEditing } from '../../edits/service/labels-editing.ts';
import type { NamedVersion } from '../../edits/service/layer-versions.ts';
import { parseDeliveryQuery } from '../../delivery/parse-delivery.ts';
import { resolveDelivery } from '../../delivery/request-delivery.ts';
import { RESULT_ID_HEADER } from '../../serving/result-ids.ts';
import { PROVENANCE_HEADER } from '../../versions/provenance.ts';
import { versionHeader } from '../../edits/service/shown-versions.ts';
import { sendDelivery, type DeliveryReplyDeps } from '../reply-delivery.ts';
import { pageQuery, roomOf, WHOLE } from '../request-input.ts';
import { ifMatchHeader, queryOf, ROOM_ID_PATH } from '../route-inputs.ts';

export type EditRouteDeps = DeliveryReplyDeps &
  Pick<HostContext, 'resultIds'> & { options: Pick<HostContext['options'], 'defaultRoomId' | 'clientProfiles' | 'headsetTriangles'> };

type LayerParams = { Params: { room_id: string; layer_id: string } };
type SeqParams = { Params: { room_id: string; layer_id: string; seq: string } };

const LAYER_ID = { type: 'string', pattern: '^[A-Za-z0-9_.-]{1,64}$' };
const LAYER_PARAMS = { type: 'object', required: ['room_id', 'layer_id'], properties: { room_id: ROOM_ID_PATH, layer_id: LAYER_ID } };
const SEQ_PARAMS = {
  type: 'object',
  required: ['room_id', 'layer_id', 'seq'],
  properties: { room_id: ROOM_ID_PATH, layer_id: LAYER_ID, seq: { type: 'string', pattern: '^\\d{1,15}$' } },
};
const IF_MATCH = ifMatchHeader('The labels version the edit is made against, "<version>": 412 when the layer has moved on');
const EDIT_BODY = {
  type: 'object',
  description:
    'One edit: {"op": "merge", "segments": [a, b, ...]} | {"op": "split", "segment": a, "seeds": [[[z, y, x], ...], ...]} | ' +
    '{"op": "paint", "label": n, "center": [z, y, x], "radius": r, "only"?: m} or {"op": "paint", "label": n, "voxels": [[z, y, x], ...]} | ' +
    '{"op": "names", "label_names"?: {...}, "label_colors"?: {...}}',
};

/** `If-Match: "<version>"` as a version; absent: none. */
function ifMatchOf(raw: string | string[] | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const match = typeof raw === 'string' ? /^\s*(?:W\/)?"(\d{1,15})"\s*$/.exec(raw) : null;
  if (!match) throw createHostError('SPC_ERR_EDIT_INVALID', 'If-Match', `must be one labels version in quotes, e.g. "3", got '${String(raw)}'`);
  return Number(match[1]);
}

function sendAnswer(reply: FastifyReply, answer: EditAnswer): FastifyReply {
  return reply.code(201).header('etag', `"${answer.version}"`).header('cache-control', 'no-cache').send(answer);
}

export async function editRoutes(app: FastifyInstance, { ctx, editing }: { ctx: EditRouteDeps; editing: LabelsEditing }): Promise<void> {
  app.post<LayerParams & { Body: unknown }>(
    '/api/rooms/:room_id/layers/:layer_id/edits',
    {
      schema: {
        summary: 'Edit a labels layer: merge, split, paint or name segments',
        description:
          '201 `{"seq", "version", "by", "segments": {"changed", "new"}, "voxels", "box"}`: `seq` is the edit’s entry in the room’s log (`labels.edit`), ' +
          '`version` the layer’s labels version after it. Followers get the `labels` event. A field that does not check is a 400 naming it; ' +
          'a layer that is not labels is a 409.',
        params: LAYER_PARAMS,
        headers: IF_MATCH,
        body: EDIT_BODY,
      },
    },
    async (request, reply) => {
      const roomId = roomOf(ctx, request.params.room_id);
      const answer = await editing.edit(roomId, request.params.layer_id, request.body, ifMatchOf(request.headers['if-match']));
      return sendAnswer(reply, answer);
    },
  );

  for (const op of ['undo', 'redo'] as const) {
    app.post<SeqParams>(
      `/api/rooms/:room_id/layers/:layer_id/edits/:seq/${op}`,
      {
        schema: {
          summary: op === 'undo' ? 'Undo an edit of a labels layer, as a new edit' : 'Redo an undone edit of a labels layer, as a new edit',
          description:
            'Answers as an edit does. 409 `SPC_ERR_EDIT_CONFLICT` naming the later edits still in effect that changed what this one changed ' +
            '(an undone edit and its undo count as neither, so edits undo newest first).',
          params: SEQ_PARAMS,
          headers: IF_MATCH,
        },
      },
      async (request, reply) => {
        const roomId = roomOf(ctx, request.params.room_id);
        const seq = Number(request.params.seq);
        const answer = await editing.reverse(roomId, request.params.layer_id, op, seq, ifMatchOf(request.headers['if-match']));
        return sendAnswer(reply, answer);
      },
    );
  }

  app.get<LayerParams & { Querystring: { since?: string; limit?: string } }>(
    '/api/rooms/:room_id/layers/:layer_id/edits',
    {
      schema: {
        summary: 'A labels layer’s edits, paged as the room’s log',
        description:
          '`{"edits": [...], "next_since", "more"}`: the edits with a log seq above `since`, oldest first, at most `limit` (default 1000, at most ' +
          '10000), each with who made it and `undone_by` while an undo holds it undone.',
        params: LAYER_PARAMS,
        querystring: queryOf({ since: { type: 'string' }, limit: { type: 'string' } }),
      },
    },
    async (request) => {
      const { since, limit } = pageQuery(request.query, 'edit');
      return editing.list(roomOf(ctx, request.params.room_id), request.params.layer_id, since, limit);
    },
  );

  app.get<LayerParams & { Querystring: Record<string, unknown> }>(
    '/api/rooms/:room_id/layers/:layer_id/labels',
    {
      compress: false,
      exposeHeadRoute: false,
      schema: {
        summary: 'A labels layer at any version, as /data sends a result',
        description:
          '`?version=V` (0 the unedited result; absent: the current one) with the delivery options of /data (format, dtype, ...). The answer names ' +
          'the version’s own result (`X-Result-Id`) and its version (`X-Labels-Version`).',
        params: LAYER_PARAMS,
      },
    },
    async (request, reply) => {
      const { roomId, layerId, version, asked } = labelsAsked(ctx, request);
      const at = await editing.labelsAt(roomId, layerId, version);
      const delivery = resolveDelivery(asked, at.result.type, request.headers['user-agent'], ctx.options);
      await nameVersion(reply, editing, roomId, layerId, at);
      return sendDelivery(ctx, reply, at.result, delivery, layerId, at.id);
    },
  );

  // Headers alone name a version (its result id, its provenance) without making its voxels.
  app.head<LayerParams & { Querystring: Record<string, unknown> }>(
    '/api/rooms/:room_id/layers/:layer_id/labels',
    {
      schema: {
        summary: 'The result id of a labels layer at any version, its voxels not made',
        description: 'The headers of the GET (`X-Result-Id`, `X-Labels-Version`, `Vitrine-Provenance`) without a body.',
        params: LAYER_PARAMS,
      },
    },
    async (request, reply) => {
      const { roomId, layerId, version } = labelsAsked(ctx, request);
      await nameVersion(reply, editing, roomId, layerId, await editing.namedAt(roomId, layerId, version));
      return reply.header('cache-control', 'no-cache').send();
    },
  );
}

/** What a read of a layer's labels asks: its room, layer, version (absent: the current one) and delivery options. */
function labelsAsked(ctx: EditRouteDeps, request: FastifyRequest<LayerParams & { Querystring: Record<string, unknown> }>) {
  const roomId = roomOf(ctx, request.params.room_id);
  const { version: rawVersion, ...rest } = request.query;
  let version: number | undefined;
  if (rawVersion !== undefined) {
    const whole = typeof rawVersion === 'string' && WHOLE.test(rawVersion);
    if (!whole) throw createHostError('SPC_ERR_EDIT_INVALID', 'version', 'must be a whole number from 0');
    version = Number(rawVersion);
  }
  return { roomId, layerId: request.params.layer_id, version, asked: parseDeliveryQuery(rest) };
}

/** The headers naming a version: its result id, its labels version and its provenance. */
async function nameVersion(reply: FastifyReply, editing: LabelsEditing, roomId: string, layerId: string, at: NamedVersion): Promise<void> {
  reply.header(RESULT_ID_HEADER, at.id).header('x-labels-version', String(at.version));
  const said = versionHeader(await editing.provenanceAt(roomId, layerId, at));
  if (said) reply.header(PROVENANCE_HEADER, said);
}
