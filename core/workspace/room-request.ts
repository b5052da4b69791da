/**
 * @module room-request
 * What a request to show something in a room names (`{"specimen": id}` or `{"function":
 * name}`, with `params`), resolved and computed as `/data` would: a dynamic specimen or a
 * function is checked and computed into the room's cache; a static specimen is only looked
 * up (it is shown as it is). Shared by `PUT /api/rooms/{room_id}/entry` and the agents' tools.
 */
import type { SpecimenRecord } from '../catalog/specimen-record.ts';
import { createHostError } from '../errors.ts';
import type { HostContext } from '../host-context.ts';
import { checkInputs } from '../inputs/check-inputs.ts';
import { resolveParams } from '../params/resolve-params.ts';
import type { FunctionEntry } from '../registry/function-entry.ts';
import { valueParameterNames } from '../registry/function-entry.ts';
import { functionOfSpecimen, specimenOr404, specimenSchema, specimenValues } from '../registry/specimen-functions.ts';
import type { StoredResult } from '../results/stored-result.ts';

export interface RoomRequest {
  specimen?: unknown;
  function?: unknown;
  params?: unknown;
}

export type RoomTarget =
  | { kind: 'static'; record: SpecimenRecord }
  | { kind: 'computed'; record: SpecimenRecord | null; entry: FunctionEntry; values: Record<string, unknown>; result: StoredResult };

const bad = (why: string) => createHostError('SPC_ERR_ROOM_ENTRY_INVALID', why);

/**
 * Resolves `request` and, for a function, computes it into room `roomId`.
 * @throws SPC_ERR_ROOM_ENTRY_INVALID for a malformed request; the catalogued errors of /data otherwise.
 */
export async function computeForRoom(ctx: HostContext, roomId: string, request: RoomRequest): Promise<RoomTarget> {
  if ((request.specimen === undefined) === (request.function === undefined)) throw bad("give exactly one of 'specimen' (an id) and 'function' (a name)");
  const params = request.params ?? {};
  if (typeof params !== 'object' || params === null || Array.isArray(params)) throw createHostError('SPC_ERR_PARAMS_NOT_OBJECT', Array.isArray(params) ? 'an array' : typeof params);
  const named = params as Record<string, unknown>;
  if (request.specimen !== undefined) {
    if (typeof request.specimen !== 'string') throw bad("'specimen' must be a specimen id (a string)");
    await ctx.published.refresh();
    const record = specimenOr404(ctx.catalog, request.specimen);
    if (!record.is_dynamic) {
      if (Object.keys(named).length > 0) throw bad(`specimen '${record.id}' is static: it takes no params`);
      return { kind: 'static', record };
    }
    const entry = functionOfSpecimen(ctx.functions, record);
    const { values, inputs } = await checkInputs(ctx, entry, specimenSchema(ctx.functions, record), specimenValues(ctx.functions, record, entry, named));
    const result = await ctx.results.compute({ entry, values, ...(inputs ? { inputs } : {}), roomId, specimenId: record.id });
    return { kind: 'computed', record, entry, values, result };
  }
  if (typeof request.function !== 'string') throw bad("'function' must be a function name (a string)");
  const entry = ctx.functions.get(request.function);
  if (!entry) throw createHostError('SPC_ERR_FUNCTION_NOT_FOUND', request.function);
  const checked = resolveParams(entry.schema, valueParameterNames(entry), { named }, entry.name);
  const { values, inputs } = await checkInputs(ctx, entry, entry.schema, checked);
  const result = await ctx.results.compute({ entry, values, ...(inputs ? { inputs } : {}), roomId, specimenId: null });
  return { kind: 'computed', record: null, entry, values, result };
}
