/**
 * A room's marks exported with their units, over real HTTP: a room whose scene shows a scan in
 * micrometres (the active layer) beside one in nanometres and one that states no unit. Each
 * mark of the JSON list and each CSV row names the length unit of the frame its points are in
 * (the room's, which is the active layer's, or its own layer's), its length in that unit and its
 * volume in that unit cubed; a frame without a unit leaves the fields out (empty cells). Making
 * another layer active changes the room's unit in the next export. An export imported again
 * gives the same marks: the units are the host's to say, not the importer's.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { MarkUnitFields } from '../../core/annotations/mark-units.ts';
import type { Annotation, AnnotationList, RoomScene } from '../../core/wire/scene-types.ts';
import { fileTestApp } from '../helpers/create-test-app.ts';
import { room } from '../helpers/room.ts';
import { npyBytes } from '../helpers/specimens-dir.ts';
import { waitFor } from '../helpers/wait-for.ts';

const server = fileTestApp({ specimensDir: null, poolSize: 1 }, 180_000);
const r = room('units');
const JSON_TYPE = { 'content-type': 'application/json' };

const marksAt = (into: string, rest = '') => `${server.url}/api/rooms/${encodeURIComponent(into)}/annotations${rest}`;

/** The CSV rows as objects by header name (the export quotes nothing these tests write). */
function rowsOf(csv: string): Record<string, string>[] {
  const [header, ...lines] = csv.trim().split('\r\n');
  const names = header!.split(',');
  return lines.map((line) => Object.fromEntries(line.split(',').map((v, i) => [names[i], v])));
}

/** Publishes a 4×5×6 array for the room, `unit` its length unit when given. */
async function publish(name: string, unit?: string): Promise<void> {
  const query = `filename=${name}.npy&room=${r}${unit ? `&unit=${unit}` : ''}`;
  const put = await fetch(`${server.url}/api/specimens/${r}.${name}?${query}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/octet-stream' },
    body: Uint8Array.from(npyBytes([4, 5, 6])),
  });
  expect(put.status).toBe(201);
}

const setScene = async (body: unknown) =>
  expect((await fetch(`${server.url}/api/rooms/${r}/scene`, { method: 'PUT', headers: JSON_TYPE, body: JSON.stringify(body) })).status).toBe(200);

/** Makes layer `id` the active one (the room's entry). */
const activate = async (id: string) =>
  expect(
    (await fetch(`${server.url}/api/rooms/${r}/layers/${id}`, { method: 'PATCH', headers: JSON_TYPE, body: JSON.stringify({ active: true }) })).status,
  ).toBe(200);

/** Waits until every layer of the room's scene has its result (the units are read from them). */
const computed = () =>
  waitFor(async () => {
    const scene = (await (await fetch(`${server.url}/api/rooms/${r}/scene`)).json()) as RoomScene;
    return scene.layers.every((layer) => layer.result?.result_id) ? scene : undefined;
  }, 'every layer computed');

let ruler: Annotation;
let nmBox: Annotation;
let bare: Annotation;
let point: Annotation;

beforeAll(async () => {
  await publish('scan', 'um');
  await publish('fine', 'nm');
  await publish('plain');
  await setScene({
    layers: [
      { id: 'scan', source: { specimen: `${r}.scan` } },
      { id: 'fine', source: { specimen: `${r}.fine` } },
      { id: 'plain', source: { specimen: `${r}.plain` } },
    ],
    active: 'scan',
  });
  await computed();
  const added = await fetch(marksAt(r), {
    method: 'POST',
    headers: JSON_TYPE,
    body: JSON.stringify([
      { kind: 'line', points: [[0, 0, 0], [3, 4, 0]], label: 'ruler' },
      { kind: 'box', points: [[0, 0, 0], [1, 2, 3]], layer: 'fine' },
      { kind: 'line', points: [[0, 0, 0], [0, 0, 2]], layer: 'plain' },
      { kind: 'point', points: [[1, 1, 1]] },
    ]),
  });
  expect(added.status).toBe(201);
  [ruler, nmBox, bare, point] = ((await added.json()) as AnnotationList).annotations as [Annotation, Annotation, Annotation, Annotation];
}, 120_000);

describe('exported marks name their units', () => {
  it('in JSON: each mark its frame’s unit, its length in it and its volume in it cubed', async () => {
    const list = (await (await fetch(marksAt(r))).json()) as { annotations: Record<string, unknown>[] };
    const byId = new Map(list.annotations.map((a) => [a.id, a]));
    expect(byId.get(ruler.id)).toMatchObject({ length: 5, unit: 'um', length_unit: 'um' });
    expect(byId.get(ruler.id)).not.toHaveProperty('volume_unit');
    expect(byId.get(nmBox.id)).toMatchObject({ volume: 6, unit: 'nm', volume_unit: 'nm³' });
    expect(byId.get(nmBox.id)).not.toHaveProperty('length_unit');
    expect(byId.get(point.id)).toMatchObject({ unit: 'um' });
    expect(Object.keys(byId.get(point.id)!).filter((key) => key.endsWith('unit'))).toEqual(['unit']);
    // A frame whose result states no unit: no unit fields, the numbers bare as before.
    expect(Object.keys(byId.get(bare.id)!).filter((key) => key.endsWith('unit'))).toEqual([]);
  });

  it('in CSV: a unit column for the points and one beside each measurement, empty where the frame states none', async () => {
    const csv = await (await fetch(marksAt(r, '?format=csv'))).text();
    const rows = rowsOf(csv);
    expect(Object.keys(rows[0]!)).toEqual([
      'id', 'kind', 'label', 'layer', 'point', 'x', 'y', 'z', 'length', 'volume', 'color', 'author', 'unit', 'length_unit', 'volume_unit',
    ]);
    const units = (id: string) => rows.filter((row) => row.id === id).map((row) => [row.unit, row.length_unit, row.volume_unit]);
    expect(units(ruler.id)).toEqual([['um', 'um', ''], ['um', 'um', '']]);
    expect(units(nmBox.id)).toEqual([['nm', '', 'nm³'], ['nm', '', 'nm³']]);
    expect(units(point.id)).toEqual([['um', '', '']]);
    expect(units(bare.id)).toEqual([['', '', ''], ['', '', '']]);
  });

  it('follow the active layer: the room’s marks are in the new active layer’s unit', async () => {
    await activate('fine');
    const list = (await (await fetch(marksAt(r))).json()) as { annotations: Record<string, unknown>[] };
    expect(list.annotations.find((a) => a.id === ruler.id)).toMatchObject({ unit: 'nm', length_unit: 'nm' });
    const rows = rowsOf(await (await fetch(marksAt(r, '?format=csv'))).text());
    expect(rows.find((row) => row.id === point.id)!.unit).toBe('nm');
    await activate('scan');
    expect(((await (await fetch(marksAt(r))).json()) as { annotations: Record<string, unknown>[] }).annotations[0]).toMatchObject({ unit: 'um' });
  });

  it('import again as the same marks, from JSON and from CSV (the units are not properties)', async () => {
    const strip = <T extends Annotation>(list: T[]) => list.map(({ id: _id, created: _c, updated: _u, ...rest }) => rest);
    const original = ((await (await fetch(marksAt(r))).json()) as { annotations: (Annotation & MarkUnitFields)[] }).annotations;
    const fromJson = room('units-json');
    const json = await fetch(marksAt(fromJson), { method: 'POST', headers: JSON_TYPE, body: JSON.stringify({ annotations: original }) });
    expect(json.status).toBe(201);
    const fromCsv = room('units-csv');
    const exported = await (await fetch(marksAt(r, '?format=csv'))).text();
    const csv = await fetch(marksAt(fromCsv), { method: 'POST', headers: { 'content-type': 'text/csv' }, body: exported });
    expect(csv.status).toBe(201);
    // Rooms with no scene: their exports state no unit, and the marks are the original's.
    const withoutUnits = strip(original).map(({ unit: _u, length_unit: _l, volume_unit: _v, ...rest }) => rest);
    for (const into of [fromJson, fromCsv]) {
      const copied = ((await (await fetch(marksAt(into))).json()) as AnnotationList).annotations;
      expect(strip(copied)).toEqual(withoutUnits);
    }
  });

  it('refuse a property named as a unit field, naming it', async () => {
    const body = JSON.stringify({ kind: 'point', points: [[0, 0, 0]], properties: { unit: 'mm' } });
    const res = await fetch(marksAt(r), { method: 'POST', headers: JSON_TYPE, body });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { detail: string }).detail).toMatch(/properties\.unit/);
  });
});
