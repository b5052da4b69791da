/**
 * @module room-log.test
 * A room's log over real HTTP on one host: every change (view, scene and its layers' results,
 * marks, a snapshot taken) appended once in order with its seq, ts and by; read a page at a
 * time with `next_since` (one page's readers answered the same bytes, revalidated by their ETag,
 * never a page older than their read); bad `since` and `limit` refused with the catalogued 400 (a `since` that is
 * not a seq, however given, is one code and never a read from the start); the snapshot
 * naming the seq it was taken at.
 */
import { describe, expect, it } from 'vitest';
import type { LogEntry } from '../../core/history/room-log-store.ts';
import { fileTestApp } from '../helpers/create-test-app.ts';
import { room } from '../helpers/room.ts';
import { waitFor } from '../helpers/wait-for.ts';

const JSON_TYPE = { 'content-type': 'application/json' };
const server = fileTestApp();

const send = (method: string, path: string, body?: unknown) =>
  fetch(`${server.url}${path}`, { method, headers: JSON_TYPE, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
interface Page {
  room_id: string;
  entries: LogEntry[];
  next_since: number;
  more: boolean;
  last_seq: number;
}
const log = async (r: string, query = ''): Promise<Page> => (await (await fetch(`${server.url}/api/rooms/${r}/log${query}`)).json()) as Page;

describe('a room log', () => {
  it('records each change once, in order, with seq, ts and by', async () => {
    const r = room('log');
    expect(await log(r)).toEqual({ room_id: r, entries: [], next_since: 0, more: false, last_seq: 0 });
    const start = Date.now();
    expect((await send('PUT', `/api/rooms/${r}/view`, { opacity: 0.4 })).status).toBe(200);
    expect((await send('POST', `/api/rooms/${r}/layers`, { source: { function: 'ramp', params: { n: 4 } } })).status).toBe(201);
    expect((await send('POST', `/api/rooms/${r}/annotations`, { kind: 'point', points: [[1, 2, 3]], label: 'here' })).status).toBe(201);
    // The layer's result arrives in the background: the scene then holds it, and so does the log.
    const withResult = await waitFor(async () => {
      const page = await log(r);
      const computed = (e: LogEntry) => e.type === 'layer' && e.op === 'result' && (e.scene as { layers: { result?: unknown }[] }).layers[0]?.result;
      return page.entries.some(computed) ? page : undefined;
    }, 'the layer result in the log');
    const types = withResult.entries.map((e) => e.type);
    expect(types.slice(0, 2)).toEqual(['view', 'layer']);
    expect(withResult.entries[1]).toMatchObject({ type: 'layer', op: 'add', layer: 'ramp', scene: { version: 1 } });
    expect(withResult.entries.find((e) => e.op === 'result')).toMatchObject({ type: 'layer', layer: 'ramp' });
    expect(types).toContain('annotation');
    expect(withResult.entries.map((e) => e.seq)).toEqual(types.map((_, i) => i + 1));
    for (const entry of withResult.entries) {
      expect(Object.keys(entry).slice(0, 4)).toEqual(['seq', 'ts', 'by', 'type']);
      expect(entry.by).toBe('anonymous');
      expect(entry.ts).toBeGreaterThanOrEqual(start);
    }
    expect(withResult.entries[0]).toMatchObject({ type: 'view', view: { opacity: 0.4 } });
    expect(withResult.entries.find((e) => e.type === 'annotation')).toMatchObject({ op: 'add', annotations: [{ label: 'here' }] });
    const versions = withResult.entries.filter((e) => e.scene !== undefined).map((e) => (e.scene as { version: number }).version);
    expect(versions).toEqual(versions.map((_, i) => i + 1));
  });

  it('names the seq a snapshot was taken at', async () => {
    const r = room('log');
    await send('PUT', `/api/rooms/${r}/view`, { opacity: 0.7 });
    const taken = await send('POST', `/api/rooms/${r}/snapshots`);
    expect(taken.status).toBe(201);
    const snapshot = (await taken.json()) as { id: string; log_seq: number };
    const page = await log(r);
    expect(page.entries.at(-1)).toMatchObject({ seq: snapshot.log_seq, type: 'snapshot', snapshot_id: snapshot.id });
    expect(snapshot.log_seq).toBe(page.last_seq);
  });

  it('pages with since and limit, and refuses what is not a number', async () => {
    const r = room('log');
    for (let i = 1; i <= 5; i++) await send('PUT', `/api/rooms/${r}/view`, { opacity: i / 10 });
    const first = await log(r, '?limit=2');
    expect(first.entries.map((e) => e.seq)).toEqual([1, 2]);
    expect(first).toMatchObject({ next_since: 2, more: true, last_seq: 5 });
    const rest = await log(r, `?since=${first.next_since}&limit=10`);
    expect(rest.entries.map((e) => e.seq)).toEqual([3, 4, 5]);
    expect(rest).toMatchObject({ next_since: 5, more: false });
    expect((await log(r, '?limit=50000')).entries).toHaveLength(5);
    for (const query of ['?limit=0', '?limit=1.5', '?limit=']) {
      const bad = await fetch(`${server.url}/api/rooms/${r}/log${query}`);
      expect(bad.status, query).toBe(400);
      expect(await bad.json()).toMatchObject({ code: 'SPC_ERR_LOG_QUERY_INVALID' });
    }
    // Every way of giving a seq that is not one is the same 400, never a read from the start.
    for (const query of ['?since=abc', '?since=-1', '?since=', '?since=%20', '?since[]=1', '?since[0]=2', '?since=1&since=2', '?since=1.5']) {
      const bad = await fetch(`${server.url}/api/rooms/${r}/log${query}`);
      expect(bad.status, query).toBe(400);
      expect(await bad.json(), query).toMatchObject({ code: 'SPC_ERR_SINCE_INVALID' });
    }
  });

  it('answers readers of one page the same bytes with an ETag, 304 to it, and an entry written since at once', async () => {
    const r = room('log');
    for (let i = 1; i <= 30; i++) {
      expect((await send('POST', `/api/rooms/${r}/annotations`, { kind: 'point', points: [[i, 0, 0]], label: `ünïcode ${i} "quoted"\n` })).status).toBe(201);
    }
    const readers = await Promise.all(Array.from({ length: 6 }, () => fetch(`${server.url}/api/rooms/${r}/log?limit=100`)));
    const texts = await Promise.all(readers.map((res) => res.text()));
    const etag = readers[0]!.headers.get('etag');
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect(readers.map((res) => [res.status, res.headers.get('etag'), res.headers.get('cache-control')])).toEqual(readers.map(() => [200, etag, 'no-cache']));
    expect(new Set(texts).size).toBe(1);
    // The text rendered a batch at a time is the one JSON.stringify makes of the page, key order and all.
    const page = JSON.parse(texts[0]!) as Page;
    expect(JSON.stringify(page)).toBe(texts[0]);
    expect(Object.keys(page)).toEqual(['room_id', 'entries', 'next_since', 'more', 'last_seq']);
    expect(page.entries.map((e) => e.seq)).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
    const revalidated = await fetch(`${server.url}/api/rooms/${r}/log?limit=100`, { headers: { 'if-none-match': etag! } });
    expect(revalidated.status).toBe(304);
    await send('PUT', `/api/rooms/${r}/view`, { opacity: 1 });
    const after = await fetch(`${server.url}/api/rooms/${r}/log?limit=100`, { headers: { 'if-none-match': etag! } });
    expect(after.status).toBe(200);
    expect(((await after.json()) as Page).entries.map((e) => e.seq)).toHaveLength(31);
  });
});
