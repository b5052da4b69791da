/**
 * @module specimen-request
 * One request for a computed result, resolved once: the specimen (or none, for a function
 * named directly), its function, the schema its parameters are checked against, the checked
 * values, the loaders of its inputs, the delivery it asked for (checked against the result
 * type and completed by the client's profile) and its room. Every route and tool that computes
 * (`/data`, `/start`, `/invoke`, a room's entry, the agents' tools) goes through here, so the
 * function registry is asked once, the schema is worked out once and faults are reported in
 * one order: function, parameters, inputs, delivery.
 */
import type { SpecimenRecord } from '../catalog/specimen-record.ts';
import type { DeliveryOptions } from '../delivery/delivery-options.ts';
import { resolveDelivery } from '../delivery/request-delivery.ts';
import { checkInputs, type CheckedInputs } from '../inputs/check-inputs.ts';
import { inputParameters } from '../inputs/input-types.ts';
import type { InputLoaders } from '../inputs/input-types.ts';
import type { FunctionEntry } from '../registry/function-entry.ts';
import { functionOfSpecimen, schemaOfSpecimen } from '../registry/specimen-functions.ts';
import type { ComputeRequest } from '../serving/result-source.ts';
import { valuesOf, type GivenParams } from './given-params.ts';
import type { RequestDeps } from './request-deps.ts';

/** What is computed: a dynamic specimen, or a function by name (found by the caller). */
export type RequestTarget = { specimen: SpecimenRecord } | { function: FunctionEntry };

export interface RequestAsk {
  target: RequestTarget;
  params: GivenParams;
  /** The room named (absent, null or empty: the host's default room). */
  room?: string | null;
  /** Delivery options as parsed from the request, and its User-Agent (for a known client's profile). */
  delivery?: { asked: DeliveryOptions; userAgent: string | undefined };
}

export interface SpecimenRequest {
  /** The specimen asked for; null for a function named directly. */
  record: SpecimenRecord | null;
  entry: FunctionEntry;
  /** The schema the values were checked against (the specimen's refinement of the function's). */
  schema: Record<string, unknown>;
  /** Checked values with defaults filled in; each input is in its canonical form. */
  values: Record<string, unknown>;
  /** Loaders of the input parameters; absent when the function takes none. */
  inputs?: InputLoaders;
  /** The delivery to apply (empty when none was asked and no profile applies). */
  delivery: DeliveryOptions;
  roomId: string;
}

/**
 * Resolves `ask`: the function (503 when a specimen's is not registered), the values (400s
 * naming the parameter), the inputs (400s naming the input), the delivery (400s naming the
 * option). Nothing is computed.
 */
export async function resolveRequest(deps: RequestDeps, ask: RequestAsk): Promise<SpecimenRequest> {
  return resolveRequestNow(deps, ask);
}

/**
 * {@link resolveRequest} in this turn when the function takes no inputs (every request of most
 * functions: no promise made); a promise when inputs must be checked. Throws where that rejects.
 */
export function resolveRequestNow(deps: RequestDeps, ask: RequestAsk): SpecimenRequest | Promise<SpecimenRequest> {
  const { target } = ask;
  const record = 'specimen' in target ? target.specimen : null;
  const entry = record ? functionOfSpecimen(deps.functions, record) : (target as { function: FunctionEntry }).function;
  const schema = record ? schemaOfSpecimen(record, entry) : entry.schema;
  const checked = valuesOf(schema, entry, ask.params, deps.options.maxParamsLength);
  const finish = ({ values, inputs }: CheckedInputs): SpecimenRequest => {
    const delivery = ask.delivery ? resolveDelivery(ask.delivery.asked, entry.return_type, ask.delivery.userAgent, deps.options) : {};
    const roomId = ask.room ? ask.room : deps.options.defaultRoomId;
    return { record, entry, schema, values, ...(inputs ? { inputs } : {}), delivery, roomId };
  };
  return inputParameters(schema).length === 0 ? finish({ values: checked }) : checkInputs(deps, entry, schema, checked).then(finish);
}

/** What the result source is asked for `request`, with what the caller adds (signal, progress). */
export function computeRequestOf(request: SpecimenRequest, extra: Partial<ComputeRequest> = {}): ComputeRequest {
  const { entry, values, inputs, roomId, record } = request;
  return { entry, values, ...(inputs ? { inputs } : {}), roomId, specimenId: record?.id ?? null, ...extra };
}
