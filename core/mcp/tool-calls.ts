/**
 * @module tool-calls
 * The agents' tools that do more than read one thing, over the same services the HTTP routes
 * use (so they follow the same checks and rooms): compute (into a room's cache, so the
 * room's followers see it) and hear a summary, never the bytes; show a specimen to a room;
 * publish an upload as a specimen.
 *
 * What an agent computes must be loadable into a headset at once, and a headset loads only by
 * specimen id (`GET /api/specimens/{id}/data`). A static specimen is its own id; a computation's
 * result is published for the room under an id made of the room, what computed it and its
 * content's hash, so computing the same again gives the same id and publishes nothing new.
 * Published, it is served by every route (and every host of a service) before any catalog read
 * lists it.
 */
import { publishRemote } from '../published/remote-record.ts';
import { provenanceOf } from '../versions/provenance.ts';
import { MAX_SPECIMEN_ID_LENGTH } from '../catalog/specimen-id.ts';
import type { SpecimenRecord } from '../catalog/specimen-record.ts';
import { createHostError } from '../errors.ts';
import { roomIdProblem } from '../events/room-id.ts';
import { specimenType } from '../registry/specimen-functions.ts';
import type { StoredResult } from '../results/stored-result.ts';
import { checkPublishable, checkSpecimenId, fileFromUpload, publishFile } from '../published/publish-file.ts';
import { readPublishFields } from '../published/publish-input.ts';
import { resultAsFile } from '../published/upload-as-file.ts';
import { computeForRoom, type RoomTarget } from '../rooms/service/room-request.ts';
import type { ToolArgs, ToolCallContext } from './mcp-tool.ts';
import { summarizeResult } from '../results/result-summary.ts';

/**
 * The room a call names, or the host's default room.
 * @throws SPC_ERR_BAD_REQUEST for a room the HTTP routes would refuse (too long, control characters, not a string).
 */
export function roomArg(call: ToolCallContext, args: ToolArgs): string {
  if (args.room === undefined || args.room === null || args.room === '') return call.ctx.options.defaultRoomId;
  if (typeof args.room !== 'string') throw createHostError('SPC_ERR_BAD_REQUEST', 'room must be a string');
  const problem = roomIdProblem(args.room);
  if (problem) throw createHostError('SPC_ERR_BAD_REQUEST', `room ${problem}`);
  return args.room;
}

function dataUrl(call: ToolCallContext, specimenId: string, values: Record<string, unknown> | null, room: string): string {
  const query = new URLSearchParams({ ...(values ? { params: JSON.stringify(values) } : {}), room_id: room });
  return `${call.baseUrl}/api/specimens/${encodeURIComponent(specimenId)}/data?${query}`;
}

/** Where a computed result's data can be fetched: its specimen's /data, or a function's one specimen, or its OME-Zarr store. */
function computedUrl(call: ToolCallContext, target: Extract<RoomTarget, { kind: 'computed' }>, room: string, resultId: string): string | null {
  const specimen: SpecimenRecord | undefined =
    target.record ?? call.ctx.catalog.list().find((r) => r.is_dynamic && r.function_name === target.entry.name);
  if (specimen) return dataUrl(call, specimen.id, target.values, room);
  return target.result.type === 'volume' ? `${call.baseUrl}/api/results/${resultId}.zarr/` : null;
}

/** `<room>.<name>-<hash>` with what a specimen id may not hold made `-`. */
function idOf(room: string, name: string, resultId: string): string {
  const hash = resultId.replace(/[^A-Za-z0-9]/g, '').slice(0, 12);
  const base = `${room}.${name}`.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[-._]+/, '');
  return `${base.slice(0, MAX_SPECIMEN_ID_LENGTH - hash.length - 1) || 'result'}-${hash}`;
}

/** The id `result` (computed by `name` in `room`, content `resultId`) is loaded by; published when new. */
async function loadableId(call: ToolCallContext, room: string, name: string, result: StoredResult, resultId: string): Promise<string> {
  const id = idOf(room, name, resultId);
  const known = call.ctx.catalog.get(id);
  if (known?.origin === 'published') return id;
  const { bytes, fileName } = await resultAsFile(result, id);
  const fields = readPublishFields({ room, display_name: `${name} (${room})`, description: `Computed by ${name} in room ${room}` });
  await publishFile(call.ctx, id, { bytes, fileName, result, fields });
  return id;
}

async function summary(call: ToolCallContext, result: StoredResult, extra: Record<string, unknown>): Promise<Record<string, unknown>> {
  return { ...extra, ...summarizeResult(result), result_id: await call.ctx.resultIds.of(result) };
}

export async function compute(call: ToolCallContext, args: ToolArgs): Promise<unknown> {
  const { ctx } = call;
  const room = roomArg(call, args);
  const target = await computeForRoom(ctx, room, args);
  if (target.kind === 'static') {
    const result = await ctx.staticInputs.load(target.record, new AbortController().signal);
    await ctx.rooms.showStatic(room, target.record.id, specimenType(ctx.functions, target.record));
    const id = target.record.id;
    const base = { room, specimen_id: id, load_id: id, function_name: null, params: {}, data_url: dataUrl(call, id, null, room) };
    return summary(call, result, base);
  }
  await ctx.rooms.computed(room);
  const resultId = await ctx.resultIds.of(target.result);
  const provenance = provenanceOf(target.entry, target.values);
  // A headset loads by specimen id only: the result, published for the room, gets one of its own.
  const loadId = await loadableId(call, room, target.record?.id ?? target.entry.name, target.result, resultId);
  const base = { room, specimen_id: target.record?.id ?? null, load_id: loadId, function_name: target.entry.name, params: target.values, provenance };
  return { ...(await summary(call, target.result, base)), data_url: computedUrl(call, target, room, resultId) };
}

export async function showInRoom(call: ToolCallContext, args: ToolArgs): Promise<unknown> {
  const { ctx } = call;
  const room = roomArg(call, args);
  const target = await computeForRoom(ctx, room, args);
  const entry =
    target.kind === 'static' ? await ctx.rooms.showStatic(room, target.record.id, specimenType(ctx.functions, target.record)) : await ctx.rooms.computed(room);
  return { room, entry };
}

/** `publish_remote`: an OME-Zarr image of one of the host's remotes, published in place (its metadata read, nothing copied). */
export async function publishRemoteImage(call: ToolCallContext, args: ToolArgs): Promise<unknown> {
  const { ctx } = call;
  const { id, fields } = await publishableArgs(call, args);
  const { replaced, info } = await publishRemote(ctx, id, fields);
  return { replaced, specimen: info };
}

/** A publishing tool's id, checked as one a caller may publish under, and its other arguments. */
async function publishableArgs({ ctx }: ToolCallContext, args: ToolArgs): Promise<{ id: string; fields: ToolArgs }> {
  const id = typeof args.id === 'string' ? args.id : '';
  checkSpecimenId(id);
  await ctx.published.refresh();
  checkPublishable(ctx, id);
  const { id: _id, ...fields } = args;
  return { id, fields };
}

export async function publishFromUpload(call: ToolCallContext, args: ToolArgs): Promise<unknown> {
  const { ctx } = call;
  const { id, fields } = await publishableArgs(call, args);
  const { replaced, metadata } = await publishFile(ctx, id, await fileFromUpload(ctx, id, fields));
  return { replaced, specimen: metadata };
}
