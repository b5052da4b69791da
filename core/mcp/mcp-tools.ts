/**
 * @module mcp-tools
 * The agents' tools, over the same services the HTTP routes use (so they follow the same
 * checks and rooms): list and describe specimens; compute one (into a room's cache, so the
 * room's followers see it) and hear a summary, never the bytes; show a specimen to a room;
 * change and read a room's view and entry; publish an upload as a specimen.
 */
import type { SpecimenRecord } from '../catalog/specimen-record.ts';
import type { HostContext } from '../host-context.ts';
import { toCatalogEntry, toSpecimenMetadata, type SpecimenViewDeps } from '../registry/specimen-views.ts';
import { specimenOr404, specimenType } from '../registry/specimen-functions.ts';
import type { StoredResult } from '../results/stored-result.ts';
import { checkPublishable, checkSpecimenId, fileFromUpload, publishFile, type PublishDeps } from '../workspace/publish-file.ts';
import { computeForRoom, type RoomRequestDeps, type RoomTarget } from '../workspace/room-request.ts';
import { checkViewChange } from '../workspace/room-view.ts';
import { summarizeResult } from '../results/result-summary.ts';

export interface ToolDefinition {
  name: string;
  description: string;
}

export const TOOLS: ToolDefinition[] = [
  { name: 'list_specimens', description: 'Lists the specimens this host serves (id, name, type, tags, whether computed by a function).' },
  { name: 'describe_specimen', description: "Describes one specimen: its metadata and, for a computed one, its parameters' JSON Schema." },
  {
    name: 'compute',
    description:
      'Computes a specimen or function with parameters in a room (the room shows the result to everyone following it) and answers a summary: type, sizes, value range or bounds, result_id and the URL of its data. Never the data itself.',
  },
  { name: 'show_in_room', description: 'Puts a specimen (static or computed, with parameters) or a function result in front of everyone in a room.' },
  { name: 'set_view', description: "Changes a room's shared view: window [lo, hi], colour map, opacity, mode, camera. Followers apply it." },
  { name: 'get_room', description: 'What a room shows (its entry) and how (its view).' },
  { name: 'publish_from_upload', description: 'Publishes an uploaded file (POST /api/uploads) as a static specimen every client lists.' },
];

/** What the tools read from their host. */
export type ToolDeps = RoomRequestDeps & PublishDeps & SpecimenViewDeps & Pick<HostContext, 'catalog' | 'resultIds' | 'rooms' | 'staticInputs'>;

/** What a tool call needs: the host's parts it reads and the host's base URL for links. */
export interface ToolCallContext {
  ctx: ToolDeps;
  /** e.g. `http://127.0.0.1:8000` */
  baseUrl: string;
}

type Args = Record<string, unknown>;

function roomArg(call: ToolCallContext, args: Args): string {
  return typeof args.room === 'string' && args.room !== '' ? args.room : call.ctx.options.defaultRoomId;
}

function dataUrl(call: ToolCallContext, specimenId: string, values: Record<string, unknown> | null, room: string): string {
  const query = new URLSearchParams({ ...(values ? { params: JSON.stringify(values) } : {}), room_id: room });
  return `${call.baseUrl}/api/specimens/${encodeURIComponent(specimenId)}/data?${query}`;
}

/** Where a computed result's data can be fetched: its specimen's /data, or a function's one specimen, or its OME-Zarr store. */
function computedUrl(call: ToolCallContext, target: Extract<RoomTarget, { kind: 'computed' }>, room: string, resultId: string): string | null {
  const specimen: SpecimenRecord | undefined = target.record ?? call.ctx.catalog.list().find((r) => r.is_dynamic && r.function_name === target.entry.name);
  if (specimen) return dataUrl(call, specimen.id, target.values, room);
  return target.result.type === 'volume' ? `${call.baseUrl}/api/results/${resultId}.zarr/` : null;
}

async function summary(call: ToolCallContext, result: StoredResult, extra: Record<string, unknown>): Promise<Record<string, unknown>> {
  return { ...extra, ...summarizeResult(result), result_id: await call.ctx.resultIds.of(result) };
}

async function compute(call: ToolCallContext, args: Args): Promise<unknown> {
  const { ctx } = call;
  const room = roomArg(call, args);
  const target = await computeForRoom(ctx, room, args);
  if (target.kind === 'static') {
    const result = await ctx.staticInputs.load(target.record, new AbortController().signal);
    await ctx.rooms.showStatic(room, target.record.id, specimenType(ctx.functions, target.record));
    return summary(call, result, { room, specimen_id: target.record.id, function_name: null, params: {}, data_url: dataUrl(call, target.record.id, null, room) });
  }
  await ctx.rooms.computed(room);
  const resultId = await ctx.resultIds.of(target.result);
  const base = { room, specimen_id: target.record?.id ?? null, function_name: target.entry.name, params: target.values };
  return { ...(await summary(call, target.result, base)), data_url: computedUrl(call, target, room, resultId) };
}

async function showInRoom(call: ToolCallContext, args: Args): Promise<unknown> {
  const { ctx } = call;
  const room = roomArg(call, args);
  const target = await computeForRoom(ctx, room, args);
  const entry = target.kind === 'static' ? await ctx.rooms.showStatic(room, target.record.id, specimenType(ctx.functions, target.record)) : await ctx.rooms.computed(room);
  return { room, entry };
}

async function publishFromUpload(call: ToolCallContext, args: Args): Promise<unknown> {
  const { ctx } = call;
  const id = typeof args.id === 'string' ? args.id : '';
  checkSpecimenId(id);
  await ctx.published.refresh();
  checkPublishable(ctx, id);
  const { id: _id, ...fields } = args;
  const { replaced, metadata } = await publishFile(ctx, id, await fileFromUpload(ctx, id, fields));
  return { replaced, specimen: metadata };
}

/** Runs tool `name` with `args`; throws what the routes throw (catalogued host errors). */
export async function callTool(call: ToolCallContext, name: string, args: Args): Promise<unknown> {
  const { ctx } = call;
  switch (name) {
    case 'list_specimens': {
      await ctx.published.refresh();
      return ctx.catalog
        .list()
        .map((record) => toCatalogEntry(ctx, record))
        .filter((entry) => (args.type === undefined || entry.type === args.type) && (typeof args.tag !== 'string' || entry.tags.includes(args.tag)));
    }
    case 'describe_specimen':
      await ctx.published.refresh();
      return toSpecimenMetadata(ctx, specimenOr404(ctx.catalog, String(args.id ?? '')));
    case 'compute':
      return compute(call, args);
    case 'show_in_room':
      return showInRoom(call, args);
    case 'set_view': {
      const room = roomArg(call, args);
      const { room: _room, ...change } = args;
      return { room, view: await ctx.rooms.changeView(room, checkViewChange(change)) };
    }
    case 'get_room': {
      const room = roomArg(call, args);
      const [entry, view] = await Promise.all([ctx.rooms.entry(room), ctx.rooms.view(room)]);
      return { room, entry, view };
    }
    case 'publish_from_upload':
      return publishFromUpload(call, args);
    default:
      return undefined;
  }
}
