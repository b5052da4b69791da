/**
 * @module test-inputs
 * Inputs for `vitrine/testing`, resolved without a host: `{"specimen": id, "params"}` names a
 * specimen the plugin declares (its function is called, inputs and all) or a folder of the
 * specimens directory (a static file, parsed as the host parses it); `{"upload": path}` is a
 * local file, parsed as an upload would be. Refusals are the host's catalogued 400s.
 */
import { readFile } from 'node:fs/promises';
import { findSpecimenOnDisk } from '../catalog/specimen-scanner.ts';
import { createHostError } from '../errors.ts';
import { FormatError } from '../formats/format-error.ts';
import { parseCheckedFile } from '../results/parse-checked-file.ts';
import { inputParameters, MAX_INPUT_DEPTH } from '../inputs/input-types.ts';
import { StaticInputs } from '../inputs/static-inputs.ts';
import type { StoredResult } from '../results/stored-result.ts';
import { isRecord } from '../wire/json-object.ts';

export interface TestInputSources {
  /** The specimens directory static inputs are read from. */
  specimensDir: string;
  /** The function behind a specimen the plugin declares, or undefined. */
  functionOf(specimenId: string): string | undefined;
  /** Runs one of the plugin's functions at input depth `depth`. */
  call(name: string, params: Record<string, unknown>, depth: number): Promise<StoredResult>;
}

const statics = new StaticInputs();

async function resolveOne(label: string, value: unknown, sources: TestInputSources, depth: number): Promise<StoredResult> {
  if (!isRecord(value))
    throw createHostError('SPC_ERR_INPUT_INVALID', label, 'must be {"specimen": "<id>", "params": {...}} or {"upload": "<file path>"}');
  if (depth > MAX_INPUT_DEPTH) throw createHostError('SPC_ERR_INPUT_TOO_DEEP', label, String(MAX_INPUT_DEPTH));
  if (typeof value.upload === 'string') {
    const bytes = await readFile(value.upload).catch(() => null);
    if (!bytes) throw createHostError('SPC_ERR_INPUT_UNKNOWN', label, `file '${value.upload}'`);
    try {
      return await parseCheckedFile(bytes, value.upload);
    } catch (error) {
      if (error instanceof FormatError) throw createHostError('SPC_ERR_UPLOAD_INVALID', value.upload, error.message);
      throw error;
    }
  }
  const id = value.specimen;
  if (typeof id !== 'string') throw createHostError('SPC_ERR_INPUT_INVALID', label, 'must name a specimen or an upload');
  const params = isRecord(value.params) ? value.params : {};
  const declared = sources.functionOf(id);
  if (declared) return sources.call(declared, params, depth + 1);
  const record = await findSpecimenOnDisk(sources.specimensDir, id);
  if (!record) throw createHostError('SPC_ERR_INPUT_UNKNOWN', label, `specimen '${id}' (neither declared by the plugin nor in ${sources.specimensDir})`);
  if (record.is_dynamic) {
    if (!record.function_name) throw createHostError('SPC_ERR_INPUT_UNKNOWN', label, `specimen '${id}' without a function`);
    return sources.call(record.function_name, params, depth + 1);
  }
  return statics.load(record, new AbortController().signal);
}

/** `values` with each input parameter replaced by its result (type-checked). */
export async function resolveTestInputs(
  schema: Record<string, unknown>,
  values: Record<string, unknown>,
  sources: TestInputSources,
  depth = 1,
): Promise<Record<string, unknown>> {
  const out = { ...values };
  for (const [name, type] of inputParameters(schema)) {
    if (values[name] === undefined) continue;
    const result = await resolveOne(name, values[name], sources, depth);
    if (result.type !== type) throw createHostError('SPC_ERR_INPUT_TYPE', name, type, result.type);
    out[name] = result;
  }
  return out;
}
