/**
 * Edits of a labels layer over real HTTP: an edit answers what it changed and is one entry of
 * the room's log, a follower gets its `labels` event, `If-Match` on a stale version is a 412
 * that changes nothing, a bad field is a 400 naming it, a layer that is not labels a 409; undo
 * and redo are new edits (409 naming the later edit in the way), the list shows `undone_by`,
 * and any version answers as `/data` does: version 0 is the base result's bytes, undoing every
 * edit gives them back exactly; a version is a result held by its id (summary, OME-Zarr).
 */
import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../core/app.ts';
import { decodeEnvelope, type DecodedVolume } from '../../core/envelope/decode-envelope.ts';
import { room } from '../helpers/create-test-app.ts';
import { fixturePluginsDir } from '../helpers/fixture-plugins.ts';
import { makeSpecimensDir } from '../helpers/specimens-dir.ts';
import { openStream } from '../helpers/sse-reader.ts';

const SIZE = 40;
const BLOBS = { function: 'label_blobs', params: { size: SIZE, count: 6, dtype: 'uint16', stride: 100 } };

describe('edits of a labels layer', () => {
  let app: FastifyInstance;
  let url: string;
  let r: string;
  const send = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const response = await fetch(`${url}/api/rooms/${r}${path}`, {
      method,
      headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    return { status: response.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {}, headers: response.headers };
  };
  const labels = async (query = '') => {
    const response = await fetch(`${url}/api/rooms/${r}/layers/seg/labels${query}`);
    expect(response.status).toBe(200);
    const bytes = new Uint8Array(await response.arrayBuffer());
    return { volume: decodeEnvelope(bytes) as DecodedVolume, resultId: response.headers.get('x-result-id'), version: response.headers.get('x-labels-version') };
  };
  const hashOf = ({ data }: DecodedVolume) => createHash('sha256').update(new Uint8Array(data.buffer, data.byteOffset, data.byteLength)).digest('hex');

  beforeAll(async () => {
    app = await createApp({ pluginsDir: await fixturePluginsDir(), specimensDir: await makeSpecimensDir(), logLevel: false, poolSize: 2, viewer: false });
    url = await app.listen({ host: '127.0.0.1', port: 0 });
    r = room();
    expect((await send('POST', '/layers', { id: 'seg', source: BLOBS, kind: 'labels' })).status).toBe(201);
    expect((await send('POST', '/layers', { id: 'scan', source: { function: 'sized_volume', params: {} }, kind: 'image' })).status).toBe(201);
  });
  afterAll(() => app.close());

  it('merges, answers what changed, logs it and tells followers', async () => {
    const base = await labels();
    expect(base.version).toBe('0');
    const stream = await openStream(`${url}/api/rooms/${r}/events`);
    const merged = await send('POST', '/layers/seg/edits', { op: 'merge', segments: [100, 200] });
    expect(merged.status).toBe(201);
    expect(merged.body).toMatchObject({ version: 1, by: 'anonymous', segments: { changed: [100, 200], new: [] } });
    const count200 = Array.from(base.volume.data).filter((v) => v === 200).length;
    expect(merged.body.voxels).toBe(count200);
    const event = await stream.next((e) => e.event === 'labels');
    expect(event.data).toMatchObject({ layer: 'seg', seq: merged.body.seq, version: 1, edit: { op: 'merge', segments: [100, 200] } });
    expect((event.data as { box: unknown }).box).toEqual(merged.body.box);
    stream.close();
    const after = await labels('?version=1');
    expect(Array.from(after.volume.data)).toEqual(Array.from(base.volume.data, (v) => (v === 200 ? 100 : v)));
    expect(after.resultId).not.toBe(base.resultId);
    // The version is a result the host holds: found by its id, as a summary and as OME-Zarr v0.4 and v0.5 labels.
    const summary = await fetch(`${url}/api/results/${after.resultId}`);
    expect(summary.status).toBe(200);
    expect(await summary.json()).toMatchObject({ type: 'volume', dtype: 'uint16' });
    const zattrs = await fetch(`${url}/api/results/${after.resultId}.zarr/.zattrs`);
    expect(zattrs.status).toBe(200);
    expect(await zattrs.json()).toHaveProperty('image-label');
    expect((await fetch(`${url}/api/results/${after.resultId}.ome.zarr/zarr.json`)).status).toBe(200);
    const log = await (await fetch(`${url}/api/rooms/${r}/log?since=${Number(merged.body.seq) - 1}`)).json();
    expect(log.entries[0]).toMatchObject({ seq: merged.body.seq, type: 'labels.edit', layer: 'seg', version: 1, by: 'anonymous', edit: { op: 'merge' } });
  });

  it('refuses a stale If-Match, a bad field, an unknown op and a layer that is not labels, changing nothing', async () => {
    const before = (await send('GET', '/layers/seg/edits')).body.edits as unknown[];
    const stale = await send('POST', '/layers/seg/edits', { op: 'paint', label: 5, center: [1, 1, 1], radius: 1 }, { 'if-match': '"0"' });
    expect(stale.status).toBe(412);
    expect(stale.body.code).toBe('SPC_ERR_EDIT_STALE');
    const outside = await send('POST', '/layers/seg/edits', { op: 'paint', label: 5, center: [1, SIZE, 1], radius: 1 });
    expect([outside.status, outside.body.code]).toEqual([400, 'SPC_ERR_EDIT_INVALID']);
    expect(outside.body.detail).toContain('center');
    const past = await send('POST', '/layers/seg/edits', { op: 'paint', label: 70000, center: [1, 1, 1], radius: 1 });
    expect(past.body.detail).toContain('label');
    expect((await send('POST', '/layers/seg/edits', { op: 'erode' })).body.detail).toContain('op');
    const image = await send('POST', '/layers/scan/edits', { op: 'merge', segments: [1, 2] });
    expect([image.status, image.body.code]).toEqual([409, 'SPC_ERR_EDIT_NOT_LABELS']);
    expect((await send('GET', '/layers/seg/edits')).body.edits).toEqual(before);
  });

  it('undoes newest first, redoes, lists undone_by, and undoing every edit gives back the base bytes', async () => {
    const base = await labels('?version=0');
    const current = Number((await labels()).version);
    const first = await send('POST', '/layers/seg/edits', { op: 'paint', label: 7, center: [20, 20, 20], radius: 4 }, { 'if-match': `"${current}"` });
    expect(first.status).toBe(201);
    const second = await send('POST', '/layers/seg/edits', { op: 'paint', label: 8, center: [20, 20, 22], radius: 2 });
    const conflict = await send('POST', `/layers/seg/edits/${first.body.seq}/undo`);
    expect([conflict.status, conflict.body.code]).toEqual([409, 'SPC_ERR_EDIT_CONFLICT']);
    expect(conflict.body.detail).toContain(String(second.body.seq));
    const undoSecond = await send('POST', `/layers/seg/edits/${second.body.seq}/undo`);
    expect(undoSecond.status).toBe(201);
    const undoFirst = await send('POST', `/layers/seg/edits/${first.body.seq}/undo`);
    expect(undoFirst.status).toBe(201);
    const redo = await send('POST', `/layers/seg/edits/${first.body.seq}/redo`);
    expect(redo.status).toBe(201);
    const listed = (await send('GET', `/layers/seg/edits?since=${Number(first.body.seq) - 1}&limit=10`)).body.edits as { seq: number; undone_by?: number }[];
    expect(listed.find((e) => e.seq === second.body.seq)?.undone_by).toBe(undoSecond.body.seq);
    expect(listed.find((e) => e.seq === first.body.seq)?.undone_by).toBeUndefined();
    expect(listed.find((e) => e.seq === undoFirst.body.seq)?.undone_by).toBe(redo.body.seq);
    // Undo everything still in effect, newest first.
    await send('POST', `/layers/seg/edits/${first.body.seq}/undo`);
    const all = (await send('GET', '/layers/seg/edits?limit=1000')).body.edits as { seq: number; undone_by?: number; edit: { op: string } }[];
    const merge = all.find((e) => e.edit.op === 'merge')!;
    expect((await send('POST', `/layers/seg/edits/${merge.seq}/undo`)).status).toBe(201);
    const back = await labels();
    expect(hashOf(back.volume)).toBe(hashOf(base.volume));
    expect(back.resultId).toBe(base.resultId);
  });
});
