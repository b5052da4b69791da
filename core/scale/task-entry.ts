/**
 * @module task-entry
 * The function a compute node runs for a task: the version it serves, unless the task names
 * another version's bundle id (a layer pinned to an older version, or a host that serves another
 * one), which the node then takes from the versions it keeps or the service shares. A version no
 * longer to be had is the error the asking host answers with, naming it.
 */
import { createHostError, type HostError } from '../errors.ts';
import { bundleOf, type FunctionEntry } from '../registry/function-entry.ts';
import type { FunctionRegistry } from '../registry/function-registry.ts';

export interface TaskEntrySource {
  functions: FunctionRegistry;
  /** Function `name` as the version with bundle id `bundle` has it. */
  pinned?: (name: string, bundle: string) => Promise<FunctionEntry | undefined>;
}

/** The entry for function `fn` at `bundle` (undefined when the node has no such function; an error when that version is gone). */
export async function taskEntry(source: TaskEntrySource, fn: string, bundle: string | undefined): Promise<FunctionEntry | HostError | undefined> {
  const serving = source.functions.get(fn);
  if (!bundle || (serving && bundleOf(serving)?.bundle === bundle)) return serving;
  const pinned = await source.pinned?.(fn, bundle).catch(() => undefined);
  return pinned ?? createHostError('SPC_ERR_PLUGIN_VERSION_GONE', serving?.plugin ?? fn, bundle.slice(0, 12));
}
