/**
 * @module input-deps
 * What checking and loading a request's inputs reads from its host, and nothing more: the
 * catalog and functions (a specimen input), the upload store (an upload input), the published
 * specimens (refreshed before a name is refused), static files read as results, and the
 * results an input's specimen is computed through.
 */
import type { SpecimenRecord } from '../catalog/specimen-record.ts';
import type { FunctionLookup } from '../registry/specimen-functions.ts';
import type { FunctionEntry } from '../registry/function-entry.ts';
import type { StoredResult } from '../results/stored-result.ts';
import type { ResultType } from '../sdk/result-types.ts';
import type { InputLoaders, InputRun } from './input-types.ts';

/**
 * What a specimen input's computation is asked with. The host's result source takes it as it
 * is; not asking to follow arriving bytes, it answers with the whole result.
 */
export interface InputComputation extends InputRun {
  entry: FunctionEntry;
  values: Record<string, unknown>;
  inputs?: InputLoaders;
  specimenId: string;
  /** Always true: an input is not what the room was asked for. */
  asInput: true;
}

export interface InputDeps {
  catalog: { get(id: string): SpecimenRecord | undefined };
  functions: FunctionLookup;
  /** Null when the host takes no uploads. */
  uploads: { typeOf(id: string): Promise<ResultType | null>; get(id: string): Promise<StoredResult | null> } | null;
  published: { refresh(): Promise<unknown> };
  staticInputs: { load(record: SpecimenRecord, signal: AbortSignal): Promise<StoredResult> };
  /** The results an input's specimen is computed through (the host's result source, cache first). */
  results: { open(request: InputComputation): Promise<{ result: StoredResult }> };
}
