/**
 * @module reply-computed
 * Replies with a computed result: asks the result source for it and sends it. Whether the
 * reply follows bytes still arriving (a relayed result crossing from its worker, or one read
 * cold from a blob store) is decided here, not by each route: an envelope with no delivery to
 * apply goes out as its bytes come; anything that shapes, compresses or encodes JSON waits for
 * every byte. The result id comes from the source when it knew it (a room entry's).
 */
import type { FastifyReply } from 'fastify';
import { isEmptyDelivery, type DeliveryOptions } from '../delivery/delivery-options.ts';
import type { HostContext } from '../host-context.ts';
import { ComputeTimeLimit } from '../serving/compute-time-limit.ts';
import type { ComputeRequest, OpenedResult } from '../serving/result-source.ts';
import { RESULT_ID_HEADER } from '../serving/result-ids.ts';
import { hasSteps } from '../results/volume-axes.ts';
import { PROVENANCE_HEADER, provenanceHeaderOf } from '../versions/provenance.ts';
import { DisconnectSignal } from './abort-on-disconnect.ts';
import { sendDelivery, sendJsonDelivery, type DeliveryReplyDeps } from './reply-delivery.ts';
import { sendEnvelopeAsItArrives, toEnvelope } from './reply-envelope.ts';

/** What replying with a computed result reads from its host. */
export type ComputedReplyDeps = DeliveryReplyDeps &
  Pick<HostContext, 'results' | 'resultIds'> & { options: Pick<HostContext['options'], 'computeTimeoutSeconds'> };

/**
 * The request as a reply opens it: cancelled when its client leaves or past the compute time
 * limit (504); the signal is made only if something waits.
 */
function open(deps: ComputedReplyDeps, reply: FastifyReply, request: ComputeRequest, followsArriving: boolean): Promise<OpenedResult> {
  const disconnect = new DisconnectSignal(reply.request, reply);
  const limit = new ComputeTimeLimit(deps.options.computeTimeoutSeconds);
  let signal: AbortSignal | undefined;
  // Each field named rather than spread: a spread into an object with a getter takes V8's slow
  // path (about 1 µs a hit more); the type holds the list to every field of ComputeRequest.
  const opening: EveryField<ComputeRequest> = {
    entry: request.entry,
    values: request.values,
    roomId: request.roomId,
    onProgress: request.onProgress,
    job: request.job,
    specimenId: request.specimenId,
    inputs: request.inputs,
    asInput: request.asInput,
    echo: request.echo,
    followsArriving,
    get signal() {
      return (signal ??= limit.joined(disconnect.signal));
    },
  };
  return limit.run(request.entry.name, () => deps.results.open(opening));
}

/** Every field of `T`, optional ones included (as possibly undefined): a new one must be listed. */
type EveryField<T> = { [K in keyof Required<T>]: T[K] };

/** Says what made the result: `Vitrine-Provenance: <plugin>@<version>; bundle=<12 hex>`. */
function sayProvenance(reply: FastifyReply, request: ComputeRequest): void {
  const value = provenanceHeaderOf(request.entry);
  if (value) reply.header(PROVENANCE_HEADER, value);
}

/**
 * The result's id, set as X-Result-Id. A room hit knows it already: then it is answered in the
 * same turn, with no promise made for it.
 */
function nameResult(deps: ComputedReplyDeps, reply: FastifyReply, opened: OpenedResult): string | Promise<string> {
  const named = (resultId: string) => {
    reply.header(RESULT_ID_HEADER, resultId);
    return resultId;
  };
  return opened.resultId ? named(deps.resultIds.knownAs(opened.result, opened.resultId)) : deps.resultIds.of(opened.result).then(named);
}

/**
 * Sends `request`'s result (a room hit or a computation) as `delivery` shapes it (`/data`).
 * A mesh or volume still arriving with nothing to apply streams to its first readers as it
 * comes (not a volume with time or channels: it travels as one step, taken once it is in), uncompressed (waiting for every byte to compress them would cost
 * more than it saves)
 * and without X-Result-Id (the bytes the id hashes are not all in yet); readers once it is in
 * get the compressed variant.
 */
export async function sendComputed(
  deps: ComputedReplyDeps,
  reply: FastifyReply,
  request: ComputeRequest,
  delivery: DeliveryOptions,
  baseName: string,
): Promise<FastifyReply> {
  const type = request.entry.return_type;
  // A room hit held here is answered in this turn: no time limit, no disconnect signal, no promise.
  const now = deps.results.openNow?.(request);
  const opened = now ?? (await open(deps, reply, request, type === 'mesh' || type === 'volume'));
  sayProvenance(reply, request);
  const { result, arriving } = opened;
  const envelope = arriving ? toEnvelope(result) : null;
  if (arriving && envelope && isEmptyDelivery(delivery) && !(result.type === 'volume' && hasSteps(result))) {
    reply.header('vary', 'Accept-Encoding');
    return sendEnvelopeAsItArrives(reply, envelope, deps.options.envelopeMediaType, arriving);
  }
  // Anything else waits until every byte is in.
  if (arriving && envelope) for (const part of envelope.parts) await arriving.arrived(part, part.byteLength);
  const named = nameResult(deps, reply, opened);
  const resultId = typeof named === 'string' ? named : await named;
  return sendDelivery(deps, reply, result, delivery, baseName, resultId);
}

/** Sends `request`'s result as the JSON typed result (`/invoke`), once every byte is in. */
export async function sendComputedJson(deps: ComputedReplyDeps, reply: FastifyReply, request: ComputeRequest): Promise<FastifyReply> {
  const opened = await open(deps, reply, request, false);
  sayProvenance(reply, request);
  const resultId = await nameResult(deps, reply, opened);
  return sendJsonDelivery(deps, reply, opened.result, request.entry.name, resultId);
}
