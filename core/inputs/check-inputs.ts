/**
 * @module check-inputs
 * Checks a request's input parameters when it arrives, before anything runs: each value is
 * `{"specimen": id, "params": {...}}` (a static file or a dynamic specimen of the right type,
 * with its own parameters checked as `/data` would check them, recursively) or
 * `{"upload": id}`. Every refusal is a 400 naming the input by its path (`volume.params.mesh`).
 *
 * The checked values are canonical (an input's parameters with their defaults filled in), so
 * the cache key of the function that takes them covers each input's own key: the same input,
 * however it was written, is the same key. For each input a loader is made that produces its
 * result just before the function runs.
 */
import { createHostError, isHostError, type HostError } from '../errors.ts';
import { functionOfSpecimen, schemaOfSpecimen, specimenType } from '../registry/specimen-functions.ts';
import { resolveParams } from '../params/resolve-params.ts';
import { hashParams } from '../params/params-hash.ts';
import { valueParameterNames, type FunctionEntry } from '../registry/function-entry.ts';
import type { InputKind } from '../sdk/input-types.ts';
import { inputParameters, MAX_INPUT_DEPTH, type InputLoader, type InputLoaders } from './input-types.ts';
import type { InputDeps } from './input-deps.ts';
import { unreadableStatic } from './static-inputs.ts';
import { checkSpecimenUse } from '../people/specimen-access.ts';
import { isRecord } from '../wire/json-object.ts';

/** Checked values, and loaders for their inputs (absent when the function takes none). */
export interface CheckedInputs {
  values: Record<string, unknown>;
  inputs?: InputLoaders;
}

interface Checked {
  canonical: Record<string, unknown>;
  load: InputLoader;
}

type Schema = Record<string, unknown>;

const SHAPE = 'must be {"specimen": "<id>", "params": {...}} or {"upload": "<upload_id>"}';

/**
 * Checks the input parameters of `values` (already checked against `schema`).
 * @param chain identities (function + hash of its values) of the computations above this one.
 */
export async function checkInputs(
  deps: InputDeps,
  entry: FunctionEntry,
  schema: Schema,
  values: Record<string, unknown>,
  chain?: string[],
  path = '',
): Promise<CheckedInputs> {
  const params = inputParameters(schema);
  if (params.length === 0) return { values };
  // A relayed function runs on its worker, which would need the results themselves sent over
  // the channel; until the channel carries them, such inputs are refused rather than mangled.
  if (entry.source.kind === 'remote') {
    const given = params.find(([name]) => values[name] !== undefined);
    if (given)
      throw createHostError(
        'SPC_ERR_INPUT_INVALID',
        path ? `${path}.${given[0]}` : given[0],
        `cannot be given to ${entry.name}, a function relayed from a worker (inputs reach functions of this host only)`,
      );
  }
  const above = chain ?? [identityOf(entry, values)];
  const out = { ...values };
  const inputs: InputLoaders = {};
  for (const [name, type] of params) {
    if (values[name] === undefined) continue;
    const label = path ? `${path}.${name}` : name;
    const checked = await checkOne(deps, label, type, values[name], above);
    out[name] = checked.canonical;
    inputs[name] = checked.load;
  }
  return { values: out, inputs };
}

function identityOf(entry: FunctionEntry, values: Record<string, unknown>): string {
  return `${entry.name}:${hashParams(values)}`;
}

async function checkOne(deps: InputDeps, label: string, type: InputKind, value: unknown, chain: string[]): Promise<Checked> {
  if (!isRecord(value)) throw createHostError('SPC_ERR_INPUT_INVALID', label, SHAPE);
  if (chain.length > MAX_INPUT_DEPTH) throw createHostError('SPC_ERR_INPUT_TOO_DEEP', label, String(MAX_INPUT_DEPTH));
  if (Object.hasOwn(value, 'upload')) return checkUpload(deps, label, type, value);
  if (Object.hasOwn(value, 'specimen')) return checkSpecimen(deps, label, type, value, chain);
  throw createHostError('SPC_ERR_INPUT_INVALID', label, SHAPE);
}

async function checkUpload(deps: InputDeps, label: string, type: InputKind, value: Record<string, unknown>): Promise<Checked> {
  const id = value.upload;
  if (typeof id !== 'string' || Object.keys(value).length !== 1) throw createHostError('SPC_ERR_INPUT_INVALID', label, SHAPE);
  const uploads = deps.uploads;
  const got = uploads ? await uploads.typeOf(id) : null;
  if (!uploads || !got) throw createHostError('SPC_ERR_INPUT_UNKNOWN', label, `upload '${id}'`);
  if (got !== type) throw createHostError('SPC_ERR_INPUT_TYPE', label, type, `${got} (upload '${id}')`);
  return {
    canonical: { upload: id },
    load: async () => {
      const result = await uploads.get(id);
      if (!result) throw createHostError('SPC_ERR_INPUT_UNKNOWN', label, `upload '${id}' (it expired)`);
      return result;
    },
  };
}

async function checkSpecimen(deps: InputDeps, label: string, type: InputKind, value: Record<string, unknown>, chain: string[]): Promise<Checked> {
  const { specimen: id, params } = value;
  if (typeof id !== 'string' || Object.keys(value).some((k) => k !== 'specimen' && k !== 'params'))
    throw createHostError('SPC_ERR_INPUT_INVALID', label, SHAPE);
  if (params !== undefined && !isRecord(params)) throw createHostError('SPC_ERR_INPUT_INVALID', label, 'has params that are not a JSON object');
  // A specimen published (or replaced) on another host of a service may not be listed here yet.
  const listed = deps.catalog.get(id);
  if (!listed || listed.origin === 'published') await deps.published.refresh();
  const record = deps.catalog.get(id);
  const unknown = () => createHostError('SPC_ERR_INPUT_UNKNOWN', label, `specimen '${id}'`);
  if (!record) throw unknown();
  // A room's published specimen is unknown to whoever may not read its room.
  await checkSpecimenUse(record, false, unknown);
  const got = specimenType(deps.functions, record);
  if (got !== type) throw createHostError('SPC_ERR_INPUT_TYPE', label, type, `${got} (specimen '${id}')`);
  if (!record.is_dynamic) {
    if (params && Object.keys(params).length > 0) throw createHostError('SPC_ERR_INPUT_INVALID', label, `names static specimen '${id}', which takes no params`);
    const why = unreadableStatic(record);
    if (why) throw createHostError('SPC_ERR_INPUT_INVALID', label, `names specimen '${id}', which ${why}`);
    // An image read in place says which level the function gets (its provenance then does, and
    // its cache key moves with it).
    const origin = record.data?.kind === 'remote' ? record.data.origin?.() : null;
    const canonical = { specimen: id, params: {}, ...(origin ? { remote: origin } : {}) };
    return { canonical, load: (run) => deps.staticInputs.load(record, run.signal) };
  }
  const entry = functionOfSpecimen(deps.functions, record);
  const schema = schemaOfSpecimen(record, entry);
  let values: Record<string, unknown>;
  try {
    values = resolveParams(schema, valueParameterNames(entry), { named: params ?? {} }, entry.name);
  } catch (error) {
    if (isHostError(error) && error.statusCode === 400) throw refused(label, error);
    throw error;
  }
  const identity = identityOf(entry, values);
  if (chain.includes(identity)) throw createHostError('SPC_ERR_INPUT_CYCLE', label, entry.name);
  const nested = await checkInputs(deps, entry, schema, values, [...chain, identity], `${label}.params`);
  return {
    canonical: { specimen: id, params: nested.values },
    load: async (run) => {
      const request = {
        entry,
        values: nested.values,
        ...(nested.inputs ? { inputs: nested.inputs } : {}),
        roomId: run.roomId,
        specimenId: id,
        asInput: true as const,
        signal: run.signal,
        ...(run.onProgress ? { onProgress: run.onProgress } : {}),
      };
      // Not asked to follow arriving bytes, the source answers with the whole result.
      return (await deps.results.open(request)).result;
    },
  };
}

function refused(label: string, error: HostError): HostError {
  return createHostError('SPC_ERR_INPUT_INVALID', label, `has params that are refused: ${error.message}`);
}
