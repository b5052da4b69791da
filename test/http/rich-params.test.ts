/**
 * Parameters beyond scalars over HTTP, on a real host with a plugin built by the CLI: tuples,
 * arrays with item counts, number enums, colours and an optional parameter reach the
 * function as sent (GET query JSON and POST bodies alike), defaults fill `{}` and key the
 * cache like the explicit values, bad values are 400s naming the parameter and the item, and
 * the function listing and /openapi.json stay valid documents.
 */
import { Validator } from '@seriousme/openapi-schema-validator';
import openapiTS, { astToString } from 'openapi-typescript';
import { describe, expect, it } from 'vitest';
import { decodeEnvelope, type DecodedMesh } from '../../core/index.ts';
import { builtFixture } from '../helpers/built-fixture.ts';
import { fileTestApp, room } from '../helpers/create-test-app.ts';

// One host for the file: each test reads its own room's results (room()), or none.
const shared = fileTestApp(async () => ({ pluginsDir: await builtFixture('rich-params') }), 120_000);
const app = async () => shared.app;

function dataUrl(params: unknown, roomId = room()): string {
  return `/api/specimens/rich-triangle/data?room_id=${roomId}&params=${encodeURIComponent(JSON.stringify(params))}`;
}

describe('parameters beyond scalars over HTTP', () => {
  it('GET /data passes tuples, arrays, enums, colours and the optional parameter as sent', async () => {
    const host = await app();
    const res = await host.inject({ url: dataUrl({ axis: [1, -2, 3.5], levels: [1, 2, 0.25], factor: 4, tint: '#ff8000', seed: 7 }) });
    expect(res.statusCode, res.body).toBe(200);
    const mesh = decodeEnvelope(res.rawPayload) as DecodedMesh;
    expect(Array.from(mesh.vertices)).toEqual([1, -2, 3.5, 3.25, 4, 7, 3, 0, 0]);
    expect(Array.from(mesh.colors!)).toEqual([255, 128, 0, 255, 128, 0, 255, 128, 0]);
    expect(mesh.preamble).toMatchObject({ color_count: 3, color_dtype: 'uint8' });
  });

  it('{} runs with the defaults and is the same cache entry as the explicit defaults', async () => {
    const host = await app();
    const roomId = room();
    const empty = await host.inject({ url: dataUrl({}, roomId) });
    expect(empty.statusCode, empty.body).toBe(200);
    expect(Array.from((decodeEnvelope(empty.rawPayload) as DecodedMesh).vertices)).toEqual([0, 0, 1, 0.5, 2, -1, 1, 0, 0]);
    const explicit = await host.inject({
      method: 'POST',
      url: '/api/processing/invoke',
      payload: { function_name: 'rich_triangle', kwargs: { axis: [0, 0, 1], levels: [0.5], factor: 2, tint: '#336699' }, room_id: roomId },
    });
    expect(explicit.statusCode).toBe(200);
    expect(explicit.json()).toMatchObject({
      type: 'mesh',
      vertices: [0, 0, 1, 0.5, 2, -1, 1, 0, 0],
      colors: [51, 102, 153, 51, 102, 153, 51, 102, 153],
      colors_dtype: 'uint8',
    });
    const stats = (await host.inject({ url: '/api/processing/cache/stats' })).json();
    const entry = stats.entries.find((e: { room_id: string }) => e.room_id === roomId);
    expect(entry).toMatchObject({ function_name: 'rich_triangle', access_count: 2 });
  });

  it('POST /invoke maps positional tuples and arrays onto the parameters', async () => {
    const host = await app();
    const res = await host.inject({ method: 'POST', url: '/api/processing/invoke', payload: { function_name: 'rich_triangle', args: [[5, 6, 7], [1, 1]] } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().vertices).toEqual([5, 6, 7, 2, 2, -1, 2, 0, 0]);
  });

  it('refuses bad values with a 400 naming the parameter and the item, and keeps serving', async () => {
    const host = await app();
    const cases: [unknown, string][] = [
      [{ axis: [0, 0] }, "parameter 'axis' must NOT have fewer than 3 items"],
      [{ axis: [0, 0, 11] }, "parameter 'axis' item 2 must be <= 10"],
      [{ axis: [0, '1', 0] }, "parameter 'axis' item 1 must be number"],
      [{ levels: [] }, "parameter 'levels' must NOT have fewer than 1 items"],
      [{ levels: [1, 2, 3, 4, 5] }, "parameter 'levels' must NOT have more than 4 items"],
      [{ factor: 3 }, "parameter 'factor' must be one of 1, 2, 4"],
      [{ tint: 'orange' }, "parameter 'tint' must be a colour written #rrggbb"],
      [{ seed: 1.5 }, "parameter 'seed' must be integer"],
      [{ seed: null }, "parameter 'seed' must be integer"],
    ];
    for (const [params, detail] of cases) {
      const res = await host.inject({ url: dataUrl(params) });
      expect(res.statusCode, JSON.stringify(params)).toBe(400);
      expect(res.json()).toMatchObject({ status_code: 400, code: 'SPC_ERR_PARAM_INVALID', detail });
      const posted = await host.inject({ method: 'POST', url: '/api/specimens/rich-triangle/start', payload: { params } });
      expect(posted.statusCode).toBe(400);
      expect(posted.json().detail).toBe(detail);
    }
    expect((await host.inject({ url: dataUrl({}) })).statusCode).toBe(200);
  });

  it('refuses an input value of the wrong shape, naming the two accepted shapes', async () => {
    const host = await app();
    for (const surface of ['rich-triangle', { specimen: 'a', upload: 'b' }, { specimen: '' }, {}]) {
      const res = await host.inject({ method: 'POST', url: '/api/processing/invoke', payload: { function_name: 'rich_passthrough', kwargs: { surface } } });
      expect(res.statusCode, JSON.stringify(surface)).toBe(400);
      expect(res.json().detail).toBe(`parameter 'surface' must be {"specimen": "<id>", "params": {...}} or {"upload": "<upload_id>"} (an input of type mesh)`);
    }
  });

  it('lists the schema, and /openapi.json stays a valid OpenAPI 3.1 document', async () => {
    const host = await app();
    const listed = (await host.inject({ url: '/api/processing/functions' })).json() as { name: string; schema: { properties: Record<string, unknown> } }[];
    const schema = listed.find((f) => f.name === 'rich_triangle')!.schema;
    expect(schema.properties['axis']).toMatchObject({ type: 'array', items: false, minItems: 3, maxItems: 3, default: [0, 0, 1] });
    expect(schema.properties['tint']).toEqual({ type: 'string', format: 'color', pattern: '^#[0-9a-fA-F]{6}$', default: '#336699' });
    expect(schema.properties['seed']).toEqual({ type: 'integer' });
    const input = listed.find((f) => f.name === 'rich_passthrough')!.schema.properties['surface'];
    expect(input).toMatchObject({ type: 'object', 'x-vitrine-input': 'mesh', default: { specimen: 'rich-triangle' } });
    const doc = (await host.inject({ url: '/openapi.json' })).json();
    const result = await new Validator().validate(doc);
    expect(result.errors ?? []).toEqual([]);
    expect(JSON.stringify(doc.components.schemas['Params.rich-triangle'])).toContain('"prefixItems"');
    // A client generator reads the tuple as a tuple type and the enum as number literals.
    const types = astToString(await openapiTS(doc));
    expect(types).toMatch(/axis\?: \[\s*number,\s*number,\s*number\s*\]/);
    expect(types).toMatch(/factor\?: 1 \| 2 \| 4/);
  });
});
