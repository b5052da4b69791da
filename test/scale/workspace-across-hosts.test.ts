/**
 * Rooms as shared workspaces on a Redis service of real host processes: a specimen published
 * on host A is listed and served on host B (the Godot client's uint8 envelope included; B's
 * viewers hear of it on the host stream),
 * survives the restart of either host, and a DELETE on one host removes it from the other; a
 * room's view and shown specimen set on one host are answered, and streamed, on the other.
 * A published specimen a room's layer names outlives `--published-ttl` on every host, while one
 * nothing names expires.
 */
import { describe, expect, it } from 'vitest';
import { decodeEnvelope } from '../../core/envelope/decode-envelope.ts';
import { npyBytes } from '../helpers/specimens-dir.ts';
import { openStream } from '../helpers/sse-reader.ts';
import type { RunningHost } from '../helpers/spawn-host.ts';
import { room, startService } from './service.ts';
import { waitFor } from '../helpers/wait-for.ts';

const GODOT = { 'user-agent': 'GodotEngine/4.3.stable.official (Linux)' };

async function listed(host: RunningHost): Promise<string[]> {
  return ((await (await fetch(`${host.url}/api/specimens`)).json()) as { id: string }[]).map((entry) => entry.id);
}

async function headsetVolume(host: RunningHost, id: string) {
  const res = await fetch(`${host.url}/api/specimens/${id}/data`, { headers: GODOT });
  expect(res.status).toBe(200);
  return decodeEnvelope(new Uint8Array(await res.arrayBuffer()));
}

describe('rooms as shared workspaces on a Redis service', () => {
  it('publishes on one host, lists and loads on the other, across restarts of either; DELETE reaches both', async () => {
    const service = await startService();
    let [a, b] = await Promise.all([service.host(), service.host()]);
    // A viewer's host stream on B hears of what A publishes, without asking.
    const bEvents = await openStream(`${b.url}/api/events`);
    await bEvents.next((e) => e.event === 'hello');
    const published = await fetch(`${a.url}/api/specimens/shared-scan?filename=scan.npy&display_name=Shared`, {
      method: 'PUT',
      headers: { 'content-type': 'application/octet-stream' },
      body: new Uint8Array(npyBytes([6, 4, 5])),
    });
    expect(published.status, await published.clone().text()).toBe(201);
    expect((await bEvents.next((e) => e.event === 'catalog')).data).toEqual({ specimens: ['shared-scan'] });
    bEvents.close();
    expect(await listed(b)).toContain('shared-scan');
    expect(await headsetVolume(b, 'shared-scan')).toMatchObject({ type: 'volume', shape: [6, 4, 5], dtype: 'uint8', value_range: [0, 119] });
    expect((await fetch(`${b.url}/api/specimens/shared-scan/thumbnail`)).headers.get('content-type')).toBe('image/png');
    // Published again from the other host: a replacement, seen by the first.
    const replaced = await fetch(`${b.url}/api/specimens/shared-scan?filename=scan.npy&display_name=Shared%20again`, {
      method: 'PUT',
      headers: { 'content-type': 'application/octet-stream' },
      body: new Uint8Array(npyBytes([3, 4, 5])),
    });
    expect(replaced.status).toBe(200);
    expect(await (await fetch(`${a.url}/api/specimens/shared-scan`)).json()).toMatchObject({ display_name: 'Shared again' });
    expect(await headsetVolume(a, 'shared-scan')).toMatchObject({ shape: [3, 4, 5] });

    await a.stop();
    a = await service.host();
    expect(await listed(a)).toContain('shared-scan');
    expect(await headsetVolume(a, 'shared-scan')).toMatchObject({ shape: [3, 4, 5], dtype: 'uint8' });
    await b.stop();
    b = await service.host();
    expect(await listed(b)).toContain('shared-scan');
    expect(await headsetVolume(b, 'shared-scan')).toMatchObject({ shape: [3, 4, 5] });

    // A room's view and shown specimen, set on one host, on the other.
    const r = room();
    const stream = await openStream(`${b.url}/api/rooms/${r}/events`);
    await stream.next((e) => e.event === 'view');
    const from = stream.events.length;
    const view = { window: [0, 50], colormap: 'bone', opacity: 0.5, mode: 'volume' };
    expect(
      (await fetch(`${a.url}/api/rooms/${r}/view`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify(view) })).status,
    ).toBe(200);
    // The event says who changed the view (nobody named: anonymous); the view itself is as set.
    expect((await stream.next((e) => e.event === 'view', from)).data).toEqual({ ...view, by: 'anonymous' });
    expect(await (await fetch(`${b.url}/api/rooms/${r}/view`)).json()).toEqual(view);
    const shown = await fetch(`${a.url}/api/rooms/${r}/entry`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ specimen: 'shared-scan' }),
    });
    expect(shown.status).toBe(200);
    const entry = { function_name: null, specimen_id: 'shared-scan', params: {}, type: 'volume' };
    expect((await stream.next((e) => e.event === 'result', from)).data).toEqual({ ...entry, by: 'anonymous' });
    expect(await (await fetch(`${b.url}/api/rooms/${r}/entry`)).json()).toEqual(entry);
    stream.close();

    expect((await fetch(`${b.url}/api/specimens/shared-scan`, { method: 'DELETE' })).status).toBe(204);
    expect(await listed(a)).not.toContain('shared-scan');
    expect((await fetch(`${a.url}/api/specimens/shared-scan/data`)).status).toBe(404);
  }, 120_000);

  it('keeps a published specimen a room names past --published-ttl on every host; one nothing names goes', async () => {
    const service = await startService();
    const [a, b] = await Promise.all([service.host({ args: ['--published-ttl', '3'] }), service.host({ args: ['--published-ttl', '3'] })]);
    const r = room();
    const put = (host: RunningHost, id: string) =>
      fetch(`${host.url}/api/specimens/${id}?filename=${id}.npy&room=${r}`, {
        method: 'PUT',
        headers: { 'content-type': 'application/octet-stream' },
        body: new Uint8Array(npyBytes([4, 4, 4])),
      });
    expect((await put(a, `${r}.scan`)).status).toBe(201);
    const layer = { id: 'scan', source: { specimen: `${r}.scan` } };
    const json = { 'content-type': 'application/json' };
    const added = await fetch(`${a.url}/api/rooms/${r}/layers`, { method: 'POST', headers: json, body: JSON.stringify(layer) });
    expect(added.status).toBe(201);
    expect((await put(b, `${r}.control`)).status).toBe(201);
    await waitFor(async () => ((await fetch(`${a.url}/api/specimens/${r}.control`)).status === 404 ? true : undefined), 'the unnamed specimen to expire');
    for (const host of [a, b]) {
      expect((await fetch(`${host.url}/api/specimens/${r}.scan/data`)).status).toBe(200);
      expect((await fetch(`${host.url}/api/rooms/${r}/layers/scan/data`)).status).toBe(200);
    }
  }, 120_000);
});
