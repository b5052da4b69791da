/**
 * @module loadable-id
 * The id a computed result is loaded by: what an agent computes must be loadable into a headset
 * at once, and a headset loads only by specimen id (`GET /api/specimens/{id}/data`). A static
 * specimen is its own id; a computation's result is published for the room under an id made of
 * the room, what computed it and its content's hash, so computing the same again gives the same
 * id and publishes nothing new. Published, it is served by every route (and every host of a
 * service) before any catalog read lists it.
 */
import { publishFile } from '../published/publish-file.ts';
import { readPublishFields } from '../published/publish-input.ts';
import { resultAsFile } from '../published/upload-as-file.ts';
import type { StoredResult } from '../results/stored-result.ts';
import type { ToolCallContext } from './mcp-tool.ts';

/** Longest specimen id. */
const MAX_ID = 128;

/** `<room>.<name>-<hash>` with what a specimen id may not hold made `-`. */
function idOf(room: string, name: string, resultId: string): string {
  const hash = resultId.replace(/[^A-Za-z0-9]/g, '').slice(0, 12);
  const base = `${room}.${name}`.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[-._]+/, '');
  return `${base.slice(0, MAX_ID - hash.length - 1) || 'result'}-${hash}`;
}

/** The id `result` (computed by `name` in `room`, content `resultId`) is loaded by; published when new. */
export async function loadableId(call: ToolCallContext, room: string, name: string, result: StoredResult, resultId: string): Promise<string> {
  const id = idOf(room, name, resultId);
  const known = call.ctx.catalog.get(id);
  if (known?.origin === 'published') return id;
  const { bytes, fileName } = await resultAsFile(result, id);
  const fields = readPublishFields({ room, display_name: `${name} (${room})`, description: `Computed by ${name} in room ${room}` });
  await publishFile(call.ctx, id, { bytes, fileName, result, fields });
  return id;
}
