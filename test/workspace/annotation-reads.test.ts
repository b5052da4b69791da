/**
 * Reading a room's annotations without holding the host: `?since_version=V` answers only the
 * changes after V (oldest first, as the room's events carry them), or the whole list once they
 * are no longer known; the JSON and CSV forms are rendered a batch at a time with the event loop
 * free between batches, as the same text a single pass would make. On a host with an admin
 * token, writes need it as the docs say, and reads do not.
 */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { AnnotationForms } from '../../core/annotations/annotation-forms.ts';
import { renderCsvParts, renderJsonParts, renderStableJson } from '../../core/annotations/chunked-render.ts';
import { MemoryAnnotationStore } from '../../core/annotations/memory-annotation-store.ts';
import { MemoryRoomLog } from '../../core/history/memory-room-log.ts';
import { EventHub } from '../../core/events/event-hub.ts';
import { stableJson } from '../../core/wire/stable-json.ts';
import type { Annotation } from '../../core/wire/scene-types.ts';
import { createTestApp, room } from '../helpers/create-test-app.ts';

describe('annotation reads', () => {
  it('answer the changes since a version, nothing when current, the whole list when unknown, 400 for a bad one', async () => {
    const host = await createTestApp();
    const r = room();
    const at = `/api/rooms/${r}/annotations`;
    const marks = Array.from({ length: 5 }, (_, i) => ({ kind: 'point', points: [[i, 0, 0]] }));
    const added = (await host.inject({ method: 'POST', url: at, payload: marks })).json() as { annotations: Annotation[] };
    const [first, second] = added.annotations;
    expect((await host.inject({ method: 'PATCH', url: `${at}/${first!.id}`, payload: { label: 'moved' } })).statusCode).toBe(200);
    expect((await host.inject({ method: 'DELETE', url: `${at}/${second!.id}` })).statusCode).toBe(204);
    const since = (await host.inject({ url: `${at}?since_version=5` })).json();
    expect(since).toMatchObject({ version: 7, since_version: 5 });
    expect(since.changes.map((c: { op: string; version: number; annotation: Annotation }) => [c.op, c.version, c.annotation.id])).toEqual([
      ['change', 6, first!.id],
      ['remove', 7, second!.id],
    ]);
    expect(since.changes[0].annotation.label).toBe('moved');
    expect((await host.inject({ url: `${at}?since_version=7` })).json()).toEqual({ version: 7, since_version: 7, changes: [] });
    const whole = (await host.inject({ url: `${at}?since_version=70` })).json();
    expect(whole.version).toBe(7);
    expect(whole.annotations).toHaveLength(4);
    const bad = await host.inject({ url: `${at}?since_version=-1` });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().detail).toMatch(/since_version/);
  });

  it('render a room of marks a batch at a time, as the text of one pass', async () => {
    const annotations: Annotation[] = Array.from({ length: 5_000 }, (_, i) => ({
      id: String(i + 1), kind: 'point', points: [[i, i / 3, -1 - i]], version: 1, created: 5, updated: 5,
      ...(i % 7 === 0 ? { properties: { score: i, note: `n, "${i}"` } } : {}),
    }));
    const text = async (parts: Promise<Buffer[]>) => Buffer.concat(await parts).toString();
    let turned = false;
    const json = text(renderJsonParts({ version: 5_000, annotations }));
    setImmediate(() => (turned = true));
    expect(JSON.parse(await json)).toEqual({ version: 5_000, annotations });
    expect(turned).toBe(true);
    expect(await renderStableJson(annotations)).toBe(stableJson(annotations));
    const csv = await text(renderCsvParts(annotations));
    const lines = csv.trimEnd().split('\r\n');
    expect(lines[0]).toBe('id,kind,label,layer,point,x,y,z,length,volume,color,author,unit,length_unit,volume_unit,note,score');
    expect(lines).toHaveLength(5_001);
    expect(lines[1]).toBe('1,point,,,0,0,0,-1,,,,,,,,"n, ""0""",0');
    const moved = [...annotations];
    moved[3] = { ...annotations[3]!, points: [[9, 9, 9]] };
    expect((await text(renderCsvParts(moved))).split('\r\n')[4]).toBe('4,point,,,0,9,9,9,,,,,,,,,');
    // Marks kept from a pass before render the same bytes again.
    expect(await text(renderJsonParts({ version: 5_000, annotations }))).toBe(await json);
    expect(await text(renderCsvParts(annotations))).toBe(csv);
  });

  it('answer every reader of a version the same bytes, ETag and compressed variant, made once', async () => {
    const store = new MemoryAnnotationStore(new EventHub(), { maxPerRoom: 10_000, maxPerHost: 10_000 }, new MemoryRoomLog(3600));
    const r = room();
    await store.add(r, Array.from({ length: 3_000 }, (_, i) => ({ kind: 'point', points: [[i, 1, 2]], label: `m${i}` })));
    const forms = new AnnotationForms(store);
    const [one, two] = await Promise.all([forms.json(r), forms.json(r)]);
    expect(two).toBe(one);
    expect(await one.encoded('gzip')).toBe(await two.encoded('gzip'));
    await store.change(r, '1', { label: 'moved' });
    expect((await forms.json(r)).etag).not.toBe(one.etag);

    const host = await createTestApp();
    const at = `/api/rooms/${r}/annotations`;
    await host.inject({ method: 'POST', url: at, payload: Array.from({ length: 3_000 }, (_, i) => ({ kind: 'point', points: [[i, 1, 2]] })) });
    const plain = await host.inject({ url: at });
    const zipped = await host.inject({ url: at, headers: { 'accept-encoding': 'gzip' } });
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(zipped.headers.etag).toBe(plain.headers.etag);
    expect(gunzipSync(zipped.rawPayload).toString()).toBe(plain.body);
    const again = await host.inject({ url: at, headers: { 'accept-encoding': 'gzip', 'if-none-match': String(plain.headers.etag) } });
    expect(again.statusCode).toBe(304);
    expect(again.headers['content-encoding']).toBeUndefined();
    const csv = await host.inject({ url: `${at}?format=csv`, headers: { 'accept-encoding': 'gzip' } });
    expect(csv.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(csv.rawPayload).toString()).toMatch(/^id,kind,label,/);
  });

  it('on a token host are the room\'s to allow, as the docs say: open to anyone until the room is closed', async () => {
    const docs = readFileSync(new URL('../../docs/annotations.md', import.meta.url), 'utf8');
    expect(docs).toMatch(/annotation writes are the room's to allow: an open\s+room takes them from anyone/);
    const host = await createTestApp({ adminToken: 'sesame' });
    const r = room();
    const at = `/api/rooms/${r}/annotations`;
    const mark = { kind: 'point', points: [[1, 2, 3]] };
    expect((await host.inject({ method: 'POST', url: at, payload: mark })).statusCode).toBe(201);
    const admin = { authorization: 'Bearer sesame' };
    expect((await host.inject({ method: 'PUT', url: `/api/rooms/${r}/access`, headers: admin, payload: { public: 'read' } })).statusCode).toBe(200);
    expect((await host.inject({ method: 'POST', url: at, payload: mark })).statusCode).toBe(401);
    expect((await host.inject({ method: 'POST', url: at, headers: admin, payload: mark })).statusCode).toBe(201);
    expect((await host.inject({ url: at })).statusCode).toBe(200);
  });
});
