/**
 * @module results-by-id.test
 * Result ids on a Redis service (real redis-server, two front-end hosts and a worker): a volume
 * computed for host A's `/data` carries the blob's content hash as X-Result-Id, host B gives
 * the same id for the same request and names it in its room `state`, and host B, which never
 * held the result, serves it as an OME-Zarr store fetched from Redis by id alone (read with
 * zarrita). An id the service does not store is a 404 on every host.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import * as zarr from 'zarrita';
import type { RunningHost } from '../helpers/spawn-host.ts';
import { openStream } from '../helpers/sse-reader.ts';
import { room, startService } from './service.ts';

let a: RunningHost;
let b: RunningHost;

beforeAll(async () => {
  const service = await startService();
  await mkdir(join(service.specimens, 'vol'));
  await writeFile(join(service.specimens, 'vol', 'specimen.json'), JSON.stringify({ display_name: 'vol', type: 'volume', function_name: 'ramp' }));
  [a, b] = await Promise.all([service.host(), service.host()]);
  await service.worker();
});

const volumeUrl = (host: RunningHost, roomId: string) => `${host.url}/api/specimens/vol/data?params=${encodeURIComponent('{"n":6}')}&room_id=${roomId}`;

describe('result ids across the hosts of a Redis service', () => {
  it('one id for one result on every host; another host serves it as OME-Zarr from Redis', async () => {
    const roomId = room();
    const fromA = await fetch(volumeUrl(a, roomId));
    expect(fromA.status).toBe(200);
    await fromA.arrayBuffer();
    const id = fromA.headers.get('x-result-id');
    expect(id).toMatch(/^[0-9a-f]{64}$/);

    // Host B reads the store straight from Redis by the id alone.
    const store = new zarr.FetchStore(`${b.url}/api/results/${id}.zarr`);
    const group = await zarr.open.v2(zarr.root(store), { kind: 'group' });
    expect((group.attrs as { multiscales: { version: string }[] }).multiscales[0]!.version).toBe('0.4');
    const array = await zarr.open.v2(zarr.root(store).resolve('0'), { kind: 'array' });
    const got = await zarr.get(array);
    expect(got.shape).toEqual([6, 6, 6]);
    expect(Array.from(got.data as Float32Array)).toEqual(Array.from({ length: 216 }, (_, i) => i));

    const fromB = await fetch(volumeUrl(b, roomId));
    await fromB.arrayBuffer();
    expect(fromB.headers.get('x-result-id')).toBe(id);
    const stream = await openStream(`${b.url}/api/rooms/${roomId}/events`);
    try {
      expect(((await stream.next()).data as { result_id: string }).result_id).toBe(id);
    } finally {
      stream.close();
    }

    for (const host of [a, b]) {
      const missing = await fetch(`${host.url}/api/results/${'f'.repeat(64)}.zarr/.zattrs`);
      expect(missing.status).toBe(404);
      expect(await missing.json()).toMatchObject({ code: 'SPC_ERR_RESULT_ID_NOT_FOUND' });
    }
  });
});
