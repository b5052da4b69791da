/**
 * @module reader-request
 * A computation asked by someone who may only read its room (a GET of `/data` is a read). What
 * the room shows now they read as it is, as a follower does (not an ask of the room); anything
 * else is computed in the room's readers' slot, so they are answered while the room's entry,
 * its active layer, its log and its streams stay as they were for everyone else.
 */
import { readersSlot } from '../events/layer-slots.ts';
import type { ComputeRequest, ResultSource } from '../serving/result-source.ts';

export async function readerRequest(results: Pick<ResultSource, 'openNow' | 'lookup'>, request: ComputeRequest): Promise<ComputeRequest> {
  const read: ComputeRequest = { ...request, echo: true };
  // A source holding its cache in this process answers at once; a service's is asked (a room's
  // hit is still a hit for its reader there: nothing is computed again for them).
  const held = results.openNow ? results.openNow(read) !== undefined : (await results.lookup(read)) !== undefined;
  return held ? read : { ...request, roomId: readersSlot(request.roomId) };
}
