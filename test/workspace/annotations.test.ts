/**
 * A room's annotations over real HTTP: adding one, a list and CSV (201, ids and versions set),
 * reading the list and one annotation (its version as the ETag), changing with `If-Match` (412
 * for a stale version, nothing changed) and removing (204, 404 after); each change an
 * `annotation` event on the room's stream with the room's version; every refusal the issue
 * lists a clear 4xx naming what is wrong (unknown kinds, wrong point counts, non-finite
 * coordinates, overlong labels, too many properties, a stale version, the annotation past the
 * room's limit, CSV that does not parse), and writes from another site or for a foreign Host
 * refused with 403.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../core/app.ts';
import type { Annotation, AnnotationEvent, AnnotationList } from '../../core/wire/scene-types.ts';
import { fixturePluginsDir } from '../helpers/fixture-plugins.ts';
import { requestWithHost } from '../helpers/raw-http.ts';
import { room } from '../helpers/room.ts';
import { openStream } from '../helpers/sse-reader.ts';

const JSON_TYPE = { 'content-type': 'application/json' };
let url: string;
let limited: string;
const apps: FastifyInstance[] = [];

/** A host shared by the file's cases (each works in a room of its own). */
async function listening(maxAnnotations?: number): Promise<string> {
  const app = await createApp({ pluginsDir: await fixturePluginsDir(), specimensDir: null, logLevel: false, poolSize: 1, viewer: false, maxAnnotations });
  apps.push(app);
  return app.listen({ host: '127.0.0.1', port: 0 });
}

beforeAll(async () => {
  [url, limited] = await Promise.all([listening(), listening(3)]);
}, 180_000);
afterAll(async () => {
  await Promise.all(apps.map((app) => app.close()));
});

const at = (r: string, rest = '', base = url) => `${base}/api/rooms/${encodeURIComponent(r)}/annotations${rest}`;
function send(method: string, target: string, body?: unknown, headers: Record<string, string> = {}): Promise<Response> {
  const text = typeof body === 'string' ? body : body === undefined ? undefined : JSON.stringify(body);
  return fetch(target, { method, headers: { ...(text === undefined ? {} : JSON_TYPE), ...headers }, body: text });
}
async function refusal(res: Response): Promise<{ status: number; detail: string; code: string }> {
  const body = (await res.json()) as { detail: string; code: string; status_code: number };
  expect(body.status_code).toBe(res.status);
  return { status: res.status, detail: body.detail, code: body.code };
}

describe('annotation routes', () => {
  it('adds one (201 with it), a list (201 with them), and lists them in id order with the room version', async () => {
    const r = room('marks');
    const one = await send('POST', at(r), { kind: 'point', points: [[1, 2, 3]], label: 'nucleus', author: 'ana', properties: { score: 0.9, stage: 'G1' } });
    expect(one.status).toBe(201);
    const point = (await one.json()) as Annotation;
    expect(point).toMatchObject({
      id: '1',
      kind: 'point',
      points: [[1, 2, 3]],
      label: 'nucleus',
      author: 'ana',
      properties: { score: 0.9, stage: 'G1' },
      version: 1,
    });
    expect(one.headers.get('etag')).toBe('"1"');
    expect(one.headers.get('location')).toBe(`/api/rooms/${r}/annotations/1`);
    const many = await send('POST', at(r), [
      {
        kind: 'line',
        points: [
          [0, 0, 0],
          [0, 3, 4],
        ],
      },
      {
        kind: 'box',
        points: [
          [0, 0, 0],
          [1, 2, 3],
        ],
        color: '#00AAFF',
      },
    ]);
    expect(many.status).toBe(201);
    const added = (await many.json()) as AnnotationList;
    expect(added.version).toBe(3);
    expect(added.annotations.map((a) => [a.id, a.length, a.volume, a.color])).toEqual([['2', 5, undefined, undefined], ['3', undefined, 6, '#00aaff']]);
    const wrapped = await send('POST', at(r), { annotations: [{ kind: 'ellipsoid', points: [[0, 0, 0], [1, 1, 1]], id: '77', version: 9, length: 1 }] });
    expect(((await wrapped.json()) as AnnotationList).annotations[0]).toMatchObject({ id: '4', version: 1, volume: (4 / 3) * Math.PI });
    const list = (await (await fetch(at(r))).json()) as AnnotationList;
    expect(list.version).toBe(4);
    expect(list.annotations.map((a) => a.id)).toEqual(['1', '2', '3', '4']);
    expect(list.annotations[0]).toEqual(point);
    const single = await fetch(at(r, '/3'));
    expect(single.headers.get('etag')).toBe('"1"');
    expect(await single.json()).toEqual(added.annotations[1]);
    expect((await fetch(at(room('empty')))).status).toBe(200);
    expect(await (await fetch(at(room('empty')))).json()).toEqual({ version: 0, annotations: [] });
  });

  it('changes with If-Match, answers 412 for a stale version and changes nothing; removes with 204, then 404', async () => {
    const r = room('marks');
    await send('POST', at(r), { kind: 'line', points: [[0, 0, 0], [1, 0, 0]], label: 'ruler' });
    const changed = await send('PATCH', at(r, '/1'), { points: [[0, 0, 0], [0, 0, 2]], label: null, color: '#ff0000' }, { 'if-match': '"1"' });
    expect(changed.status).toBe(200);
    expect(changed.headers.get('etag')).toBe('"2"');
    const body = (await changed.json()) as Annotation;
    expect(body).toMatchObject({ version: 2, length: 2, color: '#ff0000' });
    expect(body.label).toBeUndefined();
    const stale = await refusal(await send('PATCH', at(r, '/1'), { label: 'late' }, { 'if-match': '"1"' }));
    expect(stale).toMatchObject({ status: 412, code: 'SPC_ERR_ANNOTATION_STALE' });
    expect(stale.detail).toBe("annotation '1' is at version 2, not 1: someone changed it first; read it again");
    expect(await (await fetch(at(r, '/1'))).json()).toEqual(body);
    expect((await refusal(await send('DELETE', at(r, '/1'), undefined, { 'if-match': '"1"' }))).status).toBe(412);
    expect((await refusal(await send('PATCH', at(r, '/1'), { label: 'x' }, { 'if-match': 'yesterday' }))).code).toBe('SPC_ERR_ANNOTATION_IF_MATCH');
    expect((await send('PATCH', at(r, '/1'), { label: 'any' }, { 'if-match': '*' })).status).toBe(200);
    const removed = await send('DELETE', at(r, '/1'), undefined, { 'if-match': '"3"' });
    expect(removed.status).toBe(204);
    for (const res of [await send('DELETE', at(r, '/1')), await fetch(at(r, '/1')), await send('PATCH', at(r, '/1'), { label: 'x' })]) {
      expect(await refusal(res)).toMatchObject({ status: 404, detail: `no annotation '1' in room '${r}'` });
    }
    expect(((await (await fetch(at(r))).json()) as AnnotationList).version).toBe(4);
  });

  it("sends each change as an `annotation` event on the room's stream, with the room's version", async () => {
    const r = room('marks');
    const stream = await openStream(`${url}/api/rooms/${encodeURIComponent(r)}/events`);
    try {
      await stream.next((e) => e.event === 'view');
      await send('POST', at(r), [{ kind: 'point', points: [[0, 0, 0]] }, { kind: 'point', points: [[1, 0, 0]] }]);
      await send('PATCH', at(r, '/2'), { label: 'seed' });
      await send('DELETE', at(r, '/1'));
      await stream.next((e) => e.event === 'annotation' && (e.data as AnnotationEvent).version === 4);
      const events = stream.events.filter((e) => e.event === 'annotation').map((e) => e.data as AnnotationEvent);
      expect(events.map((e) => [e.op, e.annotation.id, e.version])).toEqual([['add', '1', 1], ['add', '2', 2], ['change', '2', 3], ['remove', '1', 4]]);
      expect(events[2]!.annotation).toMatchObject({ label: 'seed', version: 2 });
    } finally {
      stream.close();
    }
  });

  it('refuses each bad field with a 400 naming it, and adds nothing of a request that has one', async () => {
    const r = room('marks');
    const long = 'x'.repeat(257);
    const cases: [unknown, string][] = [
      [{ kind: 'circle', points: [[0, 0, 0]] }, "kind must be one of point, line, polyline, box, ellipsoid, got 'circle'"],
      [{ points: [[0, 0, 0]] }, 'kind is required (point, line, polyline, box, ellipsoid)'],
      [{ kind: 'line', points: [[0, 0, 0]] }, 'points must hold two points (its ends) for a line, got 1'],
      [
        {
          kind: 'point',
          points: [
            [0, 0, 0],
            [1, 1, 1],
          ],
        },
        'points must hold one point for a point, got 2',
      ],
      [{ kind: 'polyline', points: [[0, 0, 0]] }, 'points must hold from 2 to 10000 points (its vertices) for a polyline, got 1'],
      [
        {
          kind: 'box',
          points: [
            [0, 0, 0],
            [1, 1, 1],
            [2, 2, 2],
          ],
        },
        'points must hold two points (opposite corners) for a box, got 3',
      ],
      [
        {
          kind: 'ellipsoid',
          points: [
            [0, 0, 0],
            [1, 0, 1],
          ],
        },
        "points[1][1] must be a radius > 0 (an ellipsoid's second point holds its radii), got 0",
      ],
      [{ kind: 'point', points: [[0, 'NaN', 0]] }, "points[0][1] must be a finite number, got 'NaN'"],
      [{ kind: 'point', points: [[0, 0]] }, 'points[0] must be a point [x, y, z] of three numbers, got 2 values'],
      [{ kind: 'point', points: [[0, 0, 0]], label: long }, 'label must be at most 256 characters, got 257'],
      [{ kind: 'point', points: [[0, 0, 0]], author: 'a'.repeat(65) }, 'author must be at most 64 characters, got 65'],
      [{ kind: 'point', points: [[0, 0, 0]], color: 'red' }, "color must be a colour #rrggbb, got 'red'"],
      [{ kind: 'point', points: [[0, 0, 0]], layer: 'no spaces' }, "layer must be a layer id (letters, digits, _ . -; at most 64), got 'no spaces'"],
      [
        { kind: 'point', points: [[0, 0, 0]], properties: Object.fromEntries(Array.from({ length: 17 }, (_, i) => [`p${i}`, i])) },
        'properties must have at most 16 names, got 17',
      ],
      [{ kind: 'point', points: [[0, 0, 0]], properties: { note: long } }, 'properties.note must be at most 256 characters, got 257'],
      [{ kind: 'point', points: [[0, 0, 0]], properties: { ok: true } }, 'properties.ok must be a number or a string, got true'],
      [
        { kind: 'point', points: [[0, 0, 0]], colour: '#ffffff' },
        'colour is not an annotation field (fields: kind, points, layer, label, color, properties, author)',
      ],
      [
        [
          { kind: 'point', points: [[0, 0, 0]] },
          { kind: 'point', points: [[0, 0, 0]] },
          { kind: 'point', points: [[0, 0, 0]] },
          {
            kind: 'line',
            points: [
              [0, 0, 0],
              [1, 2, 'x'],
            ],
          },
        ],
        "annotations[3].points[1][2] must be a finite number, got 'x'",
      ],
      [[], 'annotations is empty: send at least one annotation'],
    ];
    for (const [body, detail] of cases) {
      const answer = await refusal(await send('POST', at(r), body));
      expect(answer, JSON.stringify(body).slice(0, 80)).toEqual({ status: 400, detail, code: 'SPC_ERR_ANNOTATION_INVALID' });
    }
    // JSON has no NaN, but 1e999 reads as Infinity.
    const infinite = await refusal(await send('POST', at(r), '{"kind":"point","points":[[0,0,1e999]]}'));
    expect(infinite.detail).toBe('points[0][2] must be a finite number, got Infinity');
    expect(await (await fetch(at(r))).json()).toEqual({ version: 0, annotations: [] });
    await send('POST', at(r), { kind: 'point', points: [[0, 0, 0]] });
    expect((await refusal(await send('PATCH', at(r, '/1'), { kind: 'line' }))).detail).toBe('points must hold two points (its ends) for a line, got 1');
    expect((await refusal(await send('PATCH', at(r, '/1'), { id: '5', wat: 1 }))).detail).toBe(
      'wat is not an annotation field (fields: kind, points, layer, label, color, properties, author)',
    );
  });

  it('refuses the annotation past the room limit with 409 and adds nothing of that request', async () => {
    const r = room('marks');
    expect((await send('POST', at(r, '', limited), [{ kind: 'point', points: [[0, 0, 0]] }, { kind: 'point', points: [[1, 0, 0]] }])).status).toBe(201);
    const full = await refusal(await send('POST', at(r, '', limited), [{ kind: 'point', points: [[2, 0, 0]] }, { kind: 'point', points: [[3, 0, 0]] }]));
    expect(full).toMatchObject({ status: 409, code: 'SPC_ERR_ANNOTATIONS_FULL' });
    expect(full.detail).toBe(`room '${r}' would hold more than its limit of 3 annotations with these 2 more (it holds 2); remove some first`);
    expect((await send('POST', at(r, '', limited), { kind: 'point', points: [[2, 0, 0]] })).status).toBe(201);
    expect((await refusal(await send('POST', at(r, '', limited), { kind: 'point', points: [[3, 0, 0]] }))).status).toBe(409);
    expect(((await (await fetch(at(r, '', limited))).json()) as AnnotationList).annotations).toHaveLength(3);
  });

  it('refuses CSV that does not parse with a 400 naming the line', async () => {
    const r = room('marks');
    const csv = (text: string) => send('POST', at(r), text, { 'content-type': 'text/csv' });
    const cases: [string, string][] = [
      ['x,y,z\n1,2,3\n"4,5,6\n', 'CSV line 3: a quoted field is not closed'],
      ['x,y,z\n1,2,3\n4,5\n', 'CSV line 3: has 2 fields, the header has 3'],
      [
        'id,kind,x,y\na,point,1,2\n',
        "CSV line 1: the header row names no 'z' column (it needs x, y and z; also id, kind, label, layer, point, color, author, and properties)",
      ],
      ['x,y,z\n1,2,3\n1,two,3\n', 'CSV line 3: y must be a finite number, got "two"'],
      ['x,y,z\n1,2,nan\n', 'CSV line 2: z must be a finite number, got "nan"'],
      ['id,kind,x,y,z\nr,line,0,0,0\nr,line,1,1,1\nr,line,2,2,2\n', "CSV line 2: (id 'r') points must hold two points (its ends) for a line, got 3"],
      ['id,kind,x,y,z\ns,circle,0,0,0\n', "CSV line 2: (id 's') kind must be one of point, line, polyline, box, ellipsoid, got 'circle'"],
      ['x,y,z,label\n1,2,3,"ok"x\n', 'CSV line 2: text after a closing quote ("ok"x)'],
      ['', 'CSV line 1: the file is empty: it needs a header row (x, y, z, ...) and a row per point'],
    ];
    for (const [text, detail] of cases) expect(await refusal(await csv(text)), text).toEqual({ status: 400, detail, code: 'SPC_ERR_ANNOTATION_CSV' });
    expect(await (await fetch(at(r))).json()).toEqual({ version: 0, annotations: [] });
  });

  it('documents its routes in /openapi.json', async () => {
    const paths = ((await (await fetch(`${url}/openapi.json`)).json()) as { paths: Record<string, Record<string, { summary?: string }>> }).paths;
    const base = '/api/rooms/{room_id}/annotations';
    expect(Object.keys(paths[base]!).sort()).toEqual(['get', 'post']);
    expect(Object.keys(paths[`${base}/{id}`]!).sort()).toEqual(['delete', 'get', 'patch']);
    for (const key of ['info', 'by_id/{key}', 'spatial0/{key}']) expect(paths[`${base}/precomputed/{type}/${key}`]?.get?.summary).toBeTruthy();
    expect(paths[base]!.post!.summary).toBe('Add annotations to a room (one, a list, or CSV)');
  });

  it('refuses writes a browser marks as cross-site, and writes for a foreign Host, with 403', async () => {
    const r = room('marks');
    await send('POST', at(r), { kind: 'point', points: [[0, 0, 0]] });
    const host = new URL(url).host;
    const writes: [string, string, string | undefined][] = [
      ['POST', at(r), '{"kind":"point","points":[[0,0,0]]}'],
      ['PATCH', at(r, '/1'), '{"label":"x"}'],
      ['DELETE', at(r, '/1'), undefined],
    ];
    for (const [method, target, body] of writes) {
      const cross = await requestWithHost(target, host, {
        method,
        headers: { ...JSON_TYPE, origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
        body,
      });
      expect(cross.status, `${method} cross-site`).toBe(403);
      expect(JSON.parse(cross.body).code).toBe('SPC_ERR_CROSS_SITE_WRITE');
      const foreign = await requestWithHost(target, 'attacker.example', { method, headers: JSON_TYPE, body });
      expect(foreign.status, `${method} foreign Host`).toBe(403);
      expect(JSON.parse(foreign.body).code).toBe('SPC_ERR_HOST_NOT_ALLOWED');
    }
    expect(await (await fetch(at(r))).json()).toMatchObject({ version: 1, annotations: [{ id: '1' }] });
  });
});
