/**
 * A segment's surface as a layer over real HTTP and MCP: a source with `segment` (a label id or
 * `all`) beside a labels function is a mesh layer whose result is the surface `/data?segment=`
 * makes, readable at its `data_url`; changing a labels layer's source to a segment makes it a
 * mesh layer; a segment of something that is not a volume, or not a label id, is a 400 naming
 * the field; an agent adds one with `add_layer`'s `segment`.
 */
import { describe, expect, it } from 'vitest';
import type { RoomScene, SceneLayer } from '../../core/wire/scene-types.ts';
import { decodeEnvelope, type DecodedMesh } from '../../core/envelope/decode-envelope.ts';
import { room } from '../helpers/create-test-app.ts';
import { fileMcp } from '../helpers/mcp-client.ts';
import { waitFor } from '../helpers/wait-for.ts';

const mcp = fileMcp();
const JSON_TYPE = { 'content-type': 'application/json' };
const BLOBS = { size: 24, count: 3, stride: 10 };

const send = (method: string, path: string, body: unknown) =>
  fetch(`${mcp.url}${path}`, { method, headers: JSON_TYPE, body: JSON.stringify(body) });
const layerOf = async (r: string, id: string): Promise<SceneLayer | undefined> =>
  ((await (await fetch(`${mcp.url}/api/rooms/${r}/scene`)).json()) as RoomScene).layers.find((l) => l.id === id);
const computed = (r: string, id: string) =>
  waitFor(async () => {
    const layer = await layerOf(r, id);
    return layer?.result ? layer : undefined;
  }, `layer ${id} of ${r} to be computed`);
const meshAt = async (url: string): Promise<DecodedMesh> =>
  decodeEnvelope(new Uint8Array(await (await fetch(`${mcp.url}${url}`)).arrayBuffer())) as DecodedMesh;

describe('a segment layer', () => {
  it("is the mesh of one label's surface, the same /data?segment= gives", async () => {
    const r = room('segment');
    expect((await send('POST', `/api/rooms/${r}/layers`, { id: 'cells', source: { function: 'label_blobs', params: BLOBS } })).status).toBe(201);
    const added = await send('POST', `/api/rooms/${r}/layers`, { id: 'cell', source: { function: 'label_blobs', params: BLOBS, segment: 20 } });
    expect(added.status).toBe(201);
    expect(await added.json()).toMatchObject({ id: 'cell', kind: 'mesh', source: { segment: 20 } });
    const cell = await computed(r, 'cell');
    expect(cell.result).toMatchObject({ type: 'mesh' });
    const shown = await meshAt(cell.result!.data_url);
    expect(shown.type).toBe('mesh');
    // The labels layer shows the volume; asked with segment=20 it gives the same surface.
    const cells = await computed(r, 'cells');
    expect(cells.result).toMatchObject({ type: 'volume' });
    const direct = await meshAt(`${cells.result!.data_url}?segment=20`);
    expect(shown.vertices.length).toBeGreaterThan(0);
    expect(Array.from(shown.vertices)).toEqual(Array.from(direct.vertices));
  });

  it('turns a labels layer into a mesh layer when its source gains a segment', async () => {
    const r = room('segment');
    await send('POST', `/api/rooms/${r}/layers`, { id: 'cells', source: { function: 'label_blobs', params: BLOBS } });
    expect((await computed(r, 'cells')).kind).toBe('labels');
    const patched = await send('PATCH', `/api/rooms/${r}/layers/cells`, { source: { function: 'label_blobs', params: BLOBS, segment: 'all' } });
    expect(patched.status).toBe(200);
    expect(await patched.json()).toMatchObject({ kind: 'mesh', source: { segment: 'all' } });
    await waitFor(async () => (await layerOf(r, 'cells'))?.result?.type === 'mesh', 'the layer to show the surfaces');
  });

  it('refuses a segment that is no label id, or of a result that is no volume, naming the field', async () => {
    const r = room('segment');
    const cases: [unknown, unknown, RegExp][] = [
      ['label_blobs', 0, /^layer\.source\.segment must be a label id/],
      ['label_blobs', 'some', /^layer\.source\.segment must be a label id/],
      ['tri', 1, /^layer\.source\.segment asks for a label's surface, and 'tri' gives a mesh/],
    ];
    for (const [name, segment, detail] of cases) {
      const source = name === 'tri' ? { specimen: name, segment } : { function: name, params: BLOBS, segment };
      const answer = await send('POST', `/api/rooms/${r}/layers`, { source });
      expect(answer.status, String(segment)).toBe(400);
      expect(((await answer.json()) as { detail: string }).detail).toMatch(detail);
    }
    const labelsOfMesh = await send('POST', `/api/rooms/${r}/layers`, { source: { function: 'label_blobs', params: BLOBS, segment: 10 }, kind: 'labels' });
    expect(labelsOfMesh.status).toBe(400);
  });

  it('is added by an agent with add_layer and segment', async () => {
    const r = room('segment');
    const added = await mcp.call('add_layer', { room: r, function: 'label_blobs', params: BLOBS, segment: 10, id: 'first' });
    expect(added.isError, added.content[0]?.text).toBeFalsy();
    expect(added.structuredContent).toMatchObject({ room: r, layer: { id: 'first', kind: 'mesh', source: { segment: 10 } } });
    expect((await computed(r, 'first')).result).toMatchObject({ type: 'mesh' });
  });
});
