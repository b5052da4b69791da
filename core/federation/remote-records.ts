/**
 * @module remote-records
 * What a worker registers, turned into the relay's own entries: functions named
 * `<worker_id>:<name>` run by the remote invoker, and specimens `<worker_id>:<id>` whose
 * thumbnail and static data are fetched from the worker on demand; and applying or
 * withdrawing a worker's whole registration (the relay, and every host of its Redis service).
 */
import type { FetchedBody, SpecimenRecord } from '../catalog/specimen-record.ts';
import { createHostError } from '../errors.ts';
import { toFunctionEntry, type FunctionEntry } from '../registry/function-entry.ts';
import type { FunctionRegistry } from '../registry/function-registry.ts';
import type { SpecimenCatalog } from '../registry/specimen-catalog.ts';
import type { WorkerRegistration } from './service-relay.ts';
import type { WireFunction, WireSpecimen } from './wire-messages.ts';

/** Where a host lists relayed entries. */
export interface RelayedLists {
  functions: FunctionRegistry;
  catalog: SpecimenCatalog;
}

/** Fetches a specimen's thumbnail or data from its worker, as a stream. */
export type RemoteFetch = (what: 'thumbnail' | 'data', specimenId: string, signal?: AbortSignal) => Promise<FetchedBody>;

export function prefixed(workerId: string, name: string): string {
  return `${workerId}:${name}`;
}

export function toRemoteEntry(workerId: string, f: WireFunction): FunctionEntry {
  const name = prefixed(workerId, f.name);
  return { ...toFunctionEntry(f, { kind: 'remote', workerId, remoteName: f.name }, f.plugin), name, schema: { ...f.schema, title: name } };
}

/**
 * The specimen as this host lists it, its files fetched through `fetch` (from the worker on its
 * relay, through the relay host elsewhere in a Redis service). Without one (a relay that has
 * not shared its address yet) the thumbnail is the placeholder and static data a 502.
 */
export function toRemoteRecord(workerId: string, s: WireSpecimen, fetch: RemoteFetch | null): SpecimenRecord {
  const id = prefixed(workerId, s.id);
  const fetchOf = (what: 'thumbnail' | 'data') =>
    fetch ? (signal?: AbortSignal) => fetch(what, s.id, signal) : () => Promise.reject(createHostError('SPC_ERR_RELAY_HOST_UNREACHABLE', id));
  const record: SpecimenRecord = {
    id,
    display_name: s.display_name,
    description: s.description,
    type: s.type,
    tags: s.tags,
    is_dynamic: s.is_dynamic,
    function_name: s.function_name ? prefixed(workerId, s.function_name) : null,
    thumbnail_file: s.thumbnail_file,
    thumbnail: fetch ? { kind: 'remote', fetch: fetchOf('thumbnail') } : { kind: 'none' },
    story: s.story,
    origin: 'relay',
    worker_id: workerId,
  };
  if (s.has_data) record.data = { kind: 'remote', fetch: fetchOf('data') };
  if (s.is_dynamic && s.schema) record.schema_override = s.schema;
  return record;
}

/** Replaces everything `workerId` registered before with `specimens` and `functions`. */
export function applyRegistration(lists: RelayedLists, workerId: string, registration: WorkerRegistration, fetch: RemoteFetch | null): void {
  lists.functions.removeWhere((e) => e.source.kind === 'remote' && e.source.workerId === workerId);
  for (const f of registration.functions) lists.functions.register(toRemoteEntry(workerId, f), { replace: true });
  lists.catalog.setSource(
    `relay:${workerId}`,
    'relay',
    registration.specimens.map((s) => toRemoteRecord(workerId, s, fetch)),
  );
}

/** Removes everything `workerId` registered. */
export function withdrawRegistration(lists: RelayedLists, workerId: string): void {
  lists.functions.removeWhere((e) => e.source.kind === 'remote' && e.source.workerId === workerId);
  lists.catalog.removeSource(`relay:${workerId}`);
}
