/**
 * Large annotation imports over HTTP: a CSV or JSON list past the inline size is read on the
 * encode thread (the host's file parser does it), answered as a small one would be (a list, or
 * one annotation for one large polyline), and a CSV past the room's cap is refused at the first
 * annotation past it, naming that line, without reading the rest.
 */
import { describe, expect, it, vi } from 'vitest';
import { hostContextOf } from '../../core/assembly/host-internals.ts';
import { createTestApp, room } from '../helpers/create-test-app.ts';

describe('annotation imports', () => {
  it('refuses a CSV at the first annotation past the cap, however long the rest', async () => {
    const host = await createTestApp({ maxAnnotations: 10 });
    const text = `x,y,z\n${'1,2,3\n'.repeat(1_000_000)}`;
    const res = await host.inject({ method: 'POST', url: `/api/rooms/${room()}/annotations`, headers: { 'content-type': 'text/csv' }, payload: text });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'SPC_ERR_ANNOTATION_CSV' });
    expect(res.json().detail).toBe('CSV line 12: starts annotation 11, more than a room keeps (10); nothing was added');
  });

  it('reads a large CSV or JSON list on the encode thread and answers as for a small one', async () => {
    const host = await createTestApp();
    const parse = vi.spyOn(hostContextOf(host).files, 'parseAnnotations');
    const r = room();
    const rows = Array.from({ length: 5000 }, (_, i) => `${i},${i / 2},1,mark ${i} ü`).join('\n');
    const csvBody = { headers: { 'content-type': 'text/csv' }, payload: `x,y,z,label\n${rows}\n` };
    const csv = await host.inject({ method: 'POST', url: `/api/rooms/${r}/annotations`, ...csvBody });
    expect(csv.statusCode).toBe(201);
    expect(csv.json().annotations).toHaveLength(5000);
    expect(csv.json().annotations[4999]).toMatchObject({ kind: 'point', label: 'mark 4999 ü', points: [[4999, 2499.5, 1]] });
    const list = Array.from({ length: 3000 }, (_, i) => ({ kind: 'point', points: [[i, 0, 0]], label: `json ${i}` }));
    const json = await host.inject({ method: 'POST', url: `/api/rooms/${r}/annotations`, payload: list });
    expect(json.statusCode).toBe(201);
    expect(json.json()).toMatchObject({ version: 8000 });
    const polyline = { kind: 'polyline', points: Array.from({ length: 9000 }, (_, i) => [i, i * 2, 0.5]) };
    const one = await host.inject({ method: 'POST', url: `/api/rooms/${r}/annotations`, payload: polyline });
    expect(one.statusCode).toBe(201);
    expect(one.json()).toMatchObject({ kind: 'polyline', version: 1 });
    expect(one.headers.location).toMatch(/\/annotations\/\d+$/);
    expect(parse).toHaveBeenCalledTimes(3);
    const cut = { headers: { 'content-type': 'application/json' }, payload: `[${'{},'.repeat(30000)}` };
    const bad = await host.inject({ method: 'POST', url: `/api/rooms/${r}/annotations`, ...cut });
    expect(bad.json()).toMatchObject({ code: 'SPC_ERR_BODY_INVALID_JSON' });
  });
});
