/**
 * @module relay-files
 * How a host of a Redis service serves the thumbnail and static data of a specimen relayed by
 * another host: only the relay holds the worker's socket, so the file is fetched over HTTP from
 * the relay host (at the address it shared when it listened, see shared-relay.ts), which
 * fetches it from the worker, and streamed through. A relay that cannot be reached, or answers
 * other than 200, is a 502 naming the specimen.
 */
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import type { FetchedBody } from '../catalog/specimen-record.ts';
import { createHostError } from '../errors.ts';
import { prefixed, type RemoteFetch } from '../federation/remote-records.ts';

const FILE_NAME = /filename="([^"]+)"/;

/** Fetches `<worker_id>:<id>`'s files from the relay host at `baseUrl`. */
export function relayHostFetch(baseUrl: string, workerId: string): RemoteFetch {
  return async (what, specimenId, signal): Promise<FetchedBody> => {
    const id = prefixed(workerId, specimenId);
    let response: Response;
    try {
      response = await fetch(`${baseUrl}/api/specimens/${encodeURIComponent(id)}/${what}`, { signal: signal ?? null, redirect: 'error' });
    } catch (error) {
      throw createHostError('SPC_ERR_RELAY_HOST_UNREACHABLE', id, `its relay host at ${baseUrl} cannot be reached (${(error as Error).message})`);
    }
    if (response.status !== 200 || !response.body) {
      await response.body?.cancel().catch(() => {});
      throw createHostError('SPC_ERR_RELAY_HOST_UNREACHABLE', id, `its relay host answered ${response.status}`);
    }
    const length = Number(response.headers.get('content-length'));
    const fileName = FILE_NAME.exec(response.headers.get('content-disposition') ?? '')?.[1];
    return {
      contentType: response.headers.get('content-type') ?? 'application/octet-stream',
      ...(Number.isFinite(length) && length >= 0 && response.headers.has('content-length') ? { length } : {}),
      ...(fileName ? { fileName } : {}),
      body: Readable.fromWeb(response.body as unknown as WebReadableStream<Uint8Array>),
    };
  };
}
