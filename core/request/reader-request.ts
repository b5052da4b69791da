/**
 * @module reader-request
 * A computation asked by someone who may only read its room (a GET of `/data` is a read). What
 * the room shows now they read as it is, as a follower does (not an ask of the room); anything
 * else is computed in the room's readers' slot, so they are answered while the room's entry,
 * its active layer, its log and its streams stay as they were for everyone else.
 */
import { readersSlot } from '../events/layer-slots.ts';
import type { ComputeRequest, ResultSource } from '../serving/result-source.ts';

export function readerRequest(results: Pick<ResultSource, 'openNow'>, request: ComputeRequest): ComputeRequest {
  const read: ComputeRequest = { ...request, echo: true };
  if (results.openNow?.(read)) return read;
  return { ...request, roomId: readersSlot(request.roomId) };
}
