/**
 * @module remote-records
 * What a worker registers, turned into the relay's own entries: functions named
 * `<worker_id>:<name>` run by the remote invoker, and specimens `<worker_id>:<id>` whose
 * thumbnail and static data are fetched from the worker on demand.
 */
import type { FetchedBody, SpecimenRecord } from '../catalog/specimen-record.ts';
import type { FunctionEntry } from '../registry/function-entry.ts';
import type { WireFunction, WireSpecimen } from './wire-messages.ts';

/** Fetches a specimen's thumbnail or data from its worker, as a stream. */
export type RemoteFetch = (what: 'thumbnail' | 'data', specimenId: string, signal?: AbortSignal) => Promise<FetchedBody>;

export function prefixed(workerId: string, name: string): string {
  return `${workerId}:${name}`;
}

export function toRemoteEntry(workerId: string, f: WireFunction): FunctionEntry {
  return {
    name: prefixed(workerId, f.name),
    return_type: f.return_type,
    schema: { ...f.schema, title: prefixed(workerId, f.name) },
    parameters: f.parameters,
    async: f.async,
    source: { kind: 'remote', workerId, remoteName: f.name },
    plugin: f.plugin,
  };
}

export function toRemoteRecord(workerId: string, s: WireSpecimen, fetch: RemoteFetch): SpecimenRecord {
  const record: SpecimenRecord = {
    id: prefixed(workerId, s.id),
    display_name: s.display_name,
    description: s.description,
    type: s.type,
    tags: s.tags,
    is_dynamic: s.is_dynamic,
    function_name: s.function_name ? prefixed(workerId, s.function_name) : null,
    thumbnail_file: s.thumbnail_file,
    thumbnail: { kind: 'remote', fetch: (signal) => fetch('thumbnail', s.id, signal) },
    story: s.story,
    origin: 'relay',
    worker_id: workerId,
  };
  if (s.has_data) record.data = { kind: 'remote', fetch: (signal) => fetch('data', s.id, signal) };
  if (s.is_dynamic && s.schema) record.schema_override = s.schema;
  return record;
}
