/**
 * @module room-request
 * What a request to show something in a room names (`{"specimen": id}` or `{"function":
 * name}`, with `params`), resolved and computed as `/data` would: a dynamic specimen or a
 * function is checked and computed into the room's cache; a static specimen is only looked
 * up (it is shown as it is). Shared by `PUT /api/rooms/{room_id}/entry` and the agents' tools.
 */
import type { SpecimenRecord } from '../../catalog/specimen-record.ts';
import { createHostError } from '../../errors.ts';
import type { FunctionEntry } from '../../registry/function-entry.ts';
import { readableSpecimen } from '../../registry/readable-specimen.ts';
import type { RequestDeps } from '../../request/request-deps.ts';
import { computeRequestOf, resolveRequest, type RequestTarget, type SpecimenRequest } from '../../request/specimen-request.ts';
import { ComputeTimeLimit } from '../../serving/compute-time-limit.ts';
import type { ResolvedHostOptions } from '../../options.ts';
import { computeResult, type ResultSource } from '../../serving/result-source.ts';
import type { StoredResult } from '../../results/stored-result.ts';

export interface RoomRequest {
  specimen?: unknown;
  function?: unknown;
  params?: unknown;
}

export type RoomTarget =
  | { kind: 'static'; record: SpecimenRecord }
  | { kind: 'computed'; record: SpecimenRecord | null; entry: FunctionEntry; values: Record<string, unknown>; result: StoredResult };

/** What resolving and computing a room's entry reads from its host. */
export type RoomRequestDeps = RequestDeps & { results: Pick<ResultSource, 'open'>; options: Pick<ResolvedHostOptions, 'computeTimeoutSeconds'> };

const bad = (why: string) => createHostError('SPC_ERR_ROOM_ENTRY_INVALID', why);

/** What a room request names: a static specimen, or a computation resolved (nothing computed). */
export type ResolvedRoomRequest = { kind: 'static'; record: SpecimenRecord } | { kind: 'computed'; resolved: SpecimenRequest };

/**
 * Resolves `request` for room `roomId` without computing anything.
 * @throws SPC_ERR_ROOM_ENTRY_INVALID for a malformed request; the catalogued errors of /data otherwise.
 */
export async function resolveRoomRequest(deps: RoomRequestDeps, roomId: string, request: RoomRequest): Promise<ResolvedRoomRequest> {
  if ((request.specimen === undefined) === (request.function === undefined)) throw bad("give exactly one of 'specimen' (an id) and 'function' (a name)");
  const params = request.params ?? {};
  if (typeof params !== 'object' || params === null || Array.isArray(params))
    throw createHostError('SPC_ERR_PARAMS_NOT_OBJECT', Array.isArray(params) ? 'an array' : typeof params);
  const named = params as Record<string, unknown>;
  let target: RequestTarget;
  if (request.specimen !== undefined) {
    if (typeof request.specimen !== 'string') throw bad("'specimen' must be a specimen id (a string)");
    const record = await readableSpecimen(deps, request.specimen);
    if (!record.is_dynamic) {
      if (Object.keys(named).length > 0) throw bad(`specimen '${record.id}' is static: it takes no params`);
      return { kind: 'static', record };
    }
    target = { specimen: record };
  } else {
    if (typeof request.function !== 'string') throw bad("'function' must be a function name (a string)");
    const entry = deps.functions.get(request.function);
    if (!entry) throw createHostError('SPC_ERR_FUNCTION_NOT_FOUND', request.function);
    target = { function: entry };
  }
  return { kind: 'computed', resolved: await resolveRequest(deps, { target, params: { named }, room: roomId }) };
}

/**
 * Resolves `request` and, for a function, computes it into room `roomId`.
 * @throws SPC_ERR_ROOM_ENTRY_INVALID for a malformed request; the catalogued errors of /data otherwise.
 */
export async function computeForRoom(deps: RoomRequestDeps, roomId: string, request: RoomRequest): Promise<RoomTarget> {
  const asked = await resolveRoomRequest(deps, roomId, request);
  if (asked.kind === 'static') return asked;
  const resolved = asked.resolved;
  const limit = new ComputeTimeLimit(deps.options.computeTimeoutSeconds);
  const result = await limit.run(resolved.entry.name, () => computeResult(deps.results, computeRequestOf(resolved, { signal: limit.signal })));
  return { kind: 'computed', record: resolved.record, entry: resolved.entry, values: resolved.values, result };
}
