/**
 * A room's annotations in their other forms, over real HTTP: a ruler between two voxel centres
 * of an anisotropic volume (0.65 × 0.65 × 2 µm) placed through the shared voxel-to-physical
 * mapping measures the exact physical length, and the CSV export carries it; the CSV export
 * read back by the import gives the same annotations; and the Neuroglancer precomputed
 * collections, decoded here by a reader written from the format's description (not the host's
 * encoder), hold every mark with its positions, label, colour, numeric properties and id,
 * polylines as their segments.
 */
import { describe, expect, it } from 'vitest';
import type { Annotation, AnnotationList } from '../../core/wire/scene-types.ts';
import { volumeFrameOf, voxelCentre } from '../../core/sdk/volume-frame.ts';
import { fileTestApp } from '../helpers/create-test-app.ts';
import { room } from '../helpers/room.ts';

const server = fileTestApp({ specimensDir: null, poolSize: 1 }, 180_000);

const at = (r: string, rest = '') => `${server.url}/api/rooms/${encodeURIComponent(r)}/annotations${rest}`;
const post = (r: string, body: unknown, type = 'application/json') =>
  fetch(at(r), { method: 'POST', headers: { 'content-type': type }, body: typeof body === 'string' ? body : JSON.stringify(body) });

/** The CSV rows as objects by header name (the export quotes nothing these tests write). */
function rowsOf(csv: string): Record<string, string>[] {
  const [header, ...lines] = csv.trim().split('\r\n');
  const names = header!.split(',');
  return lines.map((line) => Object.fromEntries(line.split(',').map((v, i) => [names[i], v])));
}

describe('measurements on an anisotropic volume', () => {
  it('a ruler between two voxel centres of a 0.65 × 0.65 × 2 µm volume measures the physical distance, in JSON and CSV', async () => {
    // shape and spacing in C order (z, y, x); voxels named (x, y, z).
    const frame = volumeFrameOf({ shape: [20, 64, 64], spacing: [2, 0.65, 0.65], origin: [10, -5, 3] });
    const [a, b] = [voxelCentre(frame, [3, 4, 1]), voxelCentre(frame, [10, 20, 6])];
    expect(a).toEqual([3 + 3 * 0.65, -5 + 4 * 0.65, 10 + 1 * 2]);
    const expected = Math.hypot(7 * 0.65, 16 * 0.65, 5 * 2);
    const r = room('golden');
    const ruler = (await (await post(r, { kind: 'line', points: [a, b], label: 'ruler' })).json()) as Annotation;
    expect(ruler.length).toBeCloseTo(expected, 12);
    const box = (await (await post(r, { kind: 'box', points: [voxelCentre(frame, [0, 0, 0]), voxelCentre(frame, [2, 2, 2])] })).json()) as Annotation;
    expect(box.volume).toBeCloseTo(1.3 * 1.3 * 4, 12);
    const csv = await (await fetch(at(r, '?format=csv'))).text();
    const rows = rowsOf(csv);
    expect(Object.keys(rows[0]!)).toEqual([
      'id', 'kind', 'label', 'layer', 'point', 'x', 'y', 'z', 'length', 'volume', 'color', 'author', 'unit', 'length_unit', 'volume_unit',
    ]);
    expect(rows.filter((row) => row.id === ruler.id).map((row) => [row.point, Number(row.x), Number(row.y), Number(row.z), Number(row.length)])).toEqual([
      ['0', ...a, ruler.length],
      ['1', ...b, ruler.length],
    ]);
    expect(rows.find((row) => row.id === box.id)!.volume).toBe(String(box.volume));
  });
});

describe('CSV both ways', () => {
  it('imports its own export as the same annotations (new ids), with quoted text and properties', async () => {
    const [from, to] = [room('csv'), room('csv')];
    const marks = [
      {
        kind: 'polyline',
        points: [
          [0, 0, 0],
          [1, 0, 0],
          [1, 1, 0.5],
        ],
        label: 'path, with "quotes"',
        author: 'ana',
        color: '#102030',
        properties: { score: 2.5, tag: 'a b' },
      },
      { kind: 'point', points: [[1e-7, -2, 3]], layer: 'scan', properties: { score: 1 } },
      {
        kind: 'ellipsoid',
        points: [
          [0, 0, 0],
          [1, 2, 3],
        ],
        label: 'cell\nnucleus',
      },
    ];
    await post(from, marks);
    const csv = await (await fetch(at(from, '?format=csv'))).text();
    const res = await post(to, csv, 'text/csv; charset=utf-8');
    expect(res.status).toBe(201);
    const strip = (list: Annotation[]) => list.map(({ id: _id, created: _c, updated: _u, ...rest }) => rest);
    const [before, after] = await Promise.all([from, to].map(async (r) => ((await (await fetch(at(r))).json()) as AnnotationList).annotations));
    expect(strip(after!)).toEqual(strip(before!));
    const download = await fetch(at(from, '?format=csv'));
    expect(download.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(download.headers.get('content-disposition')).toMatch(/^attachment; filename="csv-[0-9a-f-]+-annotations\.csv"$/);
  });

  it('takes a plain list of x, y, z rows as points, and rows of one id as one annotation in point order', async () => {
    const r = room('csv');
    const res = await post(r, 'X,Y,Z,Label\n1,2,3,a\n4,5,6,\n', 'text/csv');
    expect(((await res.json()) as AnnotationList).annotations.map((a) => [a.kind, a.points, a.label])).toEqual([
      ['point', [[1, 2, 3]], 'a'],
      ['point', [[4, 5, 6]], undefined],
    ]);
    const lines = await post(r, 'id,kind,point,x,y,z\nr,line,1,3,4,0\nq,point,0,9,9,9\nr,line,0,0,0,0\n', 'text/csv');
    expect(((await lines.json()) as AnnotationList).annotations.map((a) => [a.kind, a.points, a.length])).toEqual([
      [
        'line',
        [
          [0, 0, 0],
          [3, 4, 0],
        ],
        5,
      ],
      ['point', [[9, 9, 9]], undefined],
    ]);
  });
});

/** A collection decoded from its bytes by the format's description. */
interface Decoded {
  id: bigint;
  positions: number[];
  properties: Record<string, number | number[]>;
}

const SIZES: Record<string, number> = { uint32: 4, int32: 4, float32: 4, uint16: 2, int16: 2, uint8: 1, int8: 1, rgb: 3, rgba: 4 };

function decodeList(bytes: Buffer, info: { annotation_type: string; properties: { id: string; type: string }[] }): Decoded[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const count = Number(view.getBigUint64(0, true));
  const vectors = info.annotation_type === 'POINT' ? 1 : 2;
  // Properties are laid out by alignment: 4-byte ones first, then 2-, then 1-byte; then padding to 4.
  const order = [...info.properties].sort((p, q) => (SIZES[q.type] === 3 ? 1 : SIZES[q.type]!) - (SIZES[p.type] === 3 ? 1 : SIZES[p.type]!));
  const raw = vectors * 12 + order.reduce((n, p) => n + SIZES[p.type]!, 0);
  const stride = Math.ceil(raw / 4) * 4;
  expect(bytes.byteLength).toBe(8 + count * stride + 8 * count);
  return Array.from({ length: count }, (_, i) => {
    let o = 8 + i * stride;
    const positions = Array.from({ length: vectors * 3 }, (_, k) => view.getFloat32(o + 4 * k, true));
    o += vectors * 12;
    const properties: Record<string, number | number[]> = {};
    for (const p of order) {
      if (p.type === 'rgb') properties[p.id] = [view.getUint8(o), view.getUint8(o + 1), view.getUint8(o + 2)];
      else properties[p.id] = p.type === 'float32' ? view.getFloat32(o, true) : view.getUint32(o, true);
      o += SIZES[p.type]!;
    }
    return { id: view.getBigUint64(8 + count * stride + 8 * i, true), positions, properties };
  });
}

describe('Neuroglancer precomputed annotations', () => {
  it('serves each type as a collection whose info, spatial cell and by-id keys decode to the room’s marks', async () => {
    const r = room('ng');
    await post(r, [
      { kind: 'point', points: [[1, 2, 3]], label: 'seed', color: '#ff0000', properties: { score: 0.5, note: 'text' } },
      { kind: 'point', points: [[-4, 5.5, 6]], label: 'cell' },
      { kind: 'polyline', points: [[0, 0, 0], [1, 0, 0], [1, 2, 0]] },
      { kind: 'line', points: [[0, 0, 1], [0, 0, 2]], label: 'ruler' },
      { kind: 'box', points: [[2, 2, 2], [0, 1, 0]] },
      { kind: 'ellipsoid', points: [[5, 5, 5], [1, 2, 3]] },
    ]);
    const base = at(r, '/precomputed');
    const info = await (await fetch(`${base}/point/info`)).json();
    expect(info).toMatchObject({
      '@type': 'neuroglancer_annotations_v1',
      dimensions: { x: [1, ''], y: [1, ''], z: [1, ''] },
      annotation_type: 'POINT',
      relationships: [],
      by_id: { key: 'by_id' },
      properties: [
        { id: 'label', type: 'uint32', enum_values: [1, 2], enum_labels: ['seed', 'cell'] },
        { id: 'score', type: 'float32' },
        { id: 'color', type: 'rgb' },
      ],
    });
    expect(info.lower_bound).toEqual([-4, 2, 3]);
    for (let axis = 0; axis < 3; axis++) expect(info.upper_bound[axis]).toBeGreaterThan([1, 5.5, 6][axis]!);
    expect(info.spatial).toEqual([
      { key: 'spatial0', grid_shape: [1, 1, 1], chunk_size: info.upper_bound.map((u: number, i: number) => u - info.lower_bound[i]), limit: 2 },
    ]);
    const cell = Buffer.from(await (await fetch(`${base}/point/spatial0/0_0_0`)).arrayBuffer());
    const points = decodeList(cell, info);
    expect(points.map((p) => [p.id, p.positions, p.properties.label, p.properties.color])).toEqual([
      [1n, [1, 2, 3], 1, [255, 0, 0]],
      [2n, [-4, 5.5, 6], 2, [255, 255, 0]],
    ]);
    expect(points[0]!.properties.score).toBe(0.5);
    expect(Number.isNaN(points[1]!.properties.score)).toBe(true);
    const one = Buffer.from(await (await fetch(`${base}/point/by_id/2`)).arrayBuffer());
    expect(one.equals(cell.subarray(8 + one.length, 8 + 2 * one.length))).toBe(true);

    const lineInfo = await (await fetch(`${base}/line/info`)).json();
    const lines = decodeList(Buffer.from(await (await fetch(`${base}/line/spatial0/0_0_0`)).arrayBuffer()), lineInfo);
    const segment = (k: bigint) => (1n << 63n) + (3n << 14n) + k;
    expect(lines.map((l) => [l.id, l.positions])).toEqual([
      [segment(0n), [0, 0, 0, 1, 0, 0]],
      [segment(1n), [1, 0, 0, 1, 2, 0]],
      [4n, [0, 0, 1, 0, 0, 2]],
    ]);
    expect((await fetch(`${base}/line/by_id/${segment(1n)}`)).status).toBe(200);
    const box = decodeList(
      Buffer.from(await (await fetch(`${base}/axis_aligned_bounding_box/spatial0/0_0_0`)).arrayBuffer()),
      await (await fetch(`${base}/axis_aligned_bounding_box/info`)).json(),
    );
    expect(box.map((b) => b.positions)).toEqual([[0, 1, 0, 2, 2, 2]]);
    const ellipsoidInfo = await (await fetch(`${base}/ellipsoid/info`)).json();
    expect(ellipsoidInfo.lower_bound).toEqual([4, 3, 2]);
    expect(decodeList(Buffer.from(await (await fetch(`${base}/ellipsoid/spatial0/0_0_0`)).arrayBuffer()), ellipsoidInfo)[0]!.positions).toEqual([
      5, 5, 5, 1, 2, 3,
    ]);
  });

  it('answers 404 for keys it does not hold, an empty collection for an absent type, and lets any page read', async () => {
    const r = room('ng');
    const base = at(r, '/precomputed');
    for (const key of ['circle/info', 'point/by_id/1', 'point/by_id/abc', 'point/spatial0/1_0_0', 'point/by_id/99999999999999999999999']) {
      const res = await fetch(`${base}/${key}`);
      expect(res.status, key).toBe(404);
      expect(((await res.json()) as { code: string }).code).toBe('SPC_ERR_PRECOMPUTED_KEY_NOT_FOUND');
    }
    const empty = await fetch(`${base}/point/spatial0/0_0_0`, { headers: { origin: 'https://neuroglancer-demo.appspot.com' } });
    expect(empty.headers.get('access-control-allow-origin')).toBe('*');
    expect(Buffer.from(await empty.arrayBuffer()).equals(Buffer.alloc(8))).toBe(true);
    expect((await (await fetch(`${base}/point/info`)).json()).lower_bound).toEqual([0, 0, 0]);
  });
});
