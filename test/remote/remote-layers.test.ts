/**
 * A remote specimen is a specimen like any other once published: the catalog lists it, a
 * room's layer shows it (its values read in place, the same as the remote's), the room's
 * picture draws it, and removing it takes it out of the catalog. Agents publish one with the
 * MCP tool `publish_remote`, held to the same rules.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as zarr from 'zarrita';
import type { RoomScene } from '../../core/wire/scene-types.ts';
import { fileTestApp, room } from '../helpers/create-test-app.ts';
import { waitFor } from '../helpers/wait-for.ts';
import { connectMcp, type ToolAnswer } from '../helpers/mcp-client.ts';
import { samplesOf, startRemoteServer, writeV05, type RemoteServer } from '../helpers/zarr-remote.ts';

let remote: RemoteServer;
const data = samplesOf('uint16', 8 * 16 * 12, 9);
beforeAll(async () => {
  remote = await startRemoteServer();
  const spec = { path: 'cells.ome.zarr', axes: 'zyx', dtype: 'uint16' as const, chunks: [4, 8, 4], compression: 'blosc' as const, scale: [2, 1, 1] };
  await writeV05(remote.files, { ...spec, levels: [{ shape: [8, 16, 12], data }] }, [2, 1, 3]);
});
afterAll(() => remote?.close());

const host = fileTestApp(async () => ({ remotes: { lab: remote.url } }));

describe('a remote specimen in rooms', () => {
  it('is listed, shown as a layer with the remote\'s values, drawn in the room\'s picture, and removed', async () => {
    const put = await host.app.inject({ method: 'PUT', url: '/api/specimens/cells', payload: { remote: 'lab/cells.ome.zarr', display_name: 'Cells' } });
    expect(put.statusCode, put.body).toBe(201);
    const listed = (await host.app.inject({ method: 'GET', url: '/api/specimens' })).json() as { id: string; type: string }[] | { specimens: { id: string }[] };
    const ids = (Array.isArray(listed) ? listed : listed.specimens).map((s) => s.id);
    expect(ids).toContain('cells');

    const r = room();
    const added = await host.app.inject({ method: 'POST', url: `/api/rooms/${r}/layers`, payload: { source: { specimen: 'cells' } } });
    expect(added.statusCode, added.body).toBeLessThan(300);
    const scene = await waitFor(async () => {
      const s = (await host.app.inject({ method: 'GET', url: `/api/rooms/${r}/scene` })).json() as RoomScene;
      return s.layers.every((l) => l.result) ? s : undefined;
    }, 'the remote layer shown');
    const resultId = scene.layers[0]!.result!.result_id;
    const store = new zarr.FetchStore(`${host.url}/api/results/${resultId}.ome.zarr`);
    const shown = await zarr.get(await zarr.open.v3(zarr.root(store).resolve('0'), { kind: 'array' }));
    expect(shown.shape).toEqual([8, 16, 12]);
    expect(Array.from(shown.data as Uint16Array)).toEqual(Array.from(data));

    const picture = await host.app.inject({ method: 'GET', url: `/api/rooms/${r}/image` });
    expect(picture.statusCode, picture.body.slice(0, 200)).toBe(200);
    expect(picture.headers['content-type']).toMatch(/image\/png/);

    const gone = await host.app.inject({ method: 'DELETE', url: '/api/specimens/cells' });
    expect(gone.statusCode).toBe(204);
    expect((await host.app.inject({ method: 'GET', url: '/api/specimens/cells/data' })).statusCode).toBe(404);
  });
});

describe('publish_remote (MCP)', () => {
  it('publishes in place, and refuses what lies outside the remotes', async () => {
    const client = await connectMcp(host.url);
    try {
      const ok = (await client.callTool({ name: 'publish_remote', arguments: { id: 'agent-cells', remote: 'lab/cells.ome.zarr' } })) as ToolAnswer;
      expect(ok.isError, JSON.stringify(ok.content)).toBeFalsy();
      expect(ok.structuredContent).toMatchObject({ replaced: false, specimen: { shape: [8, 16, 12], dtype: 'uint16', levels: [[8, 16, 12]] } });
      expect((await host.app.inject({ method: 'GET', url: '/api/specimens/agent-cells/data?format=npy' })).statusCode).toBe(200);
      const refused = (await client.callTool({ name: 'publish_remote', arguments: { id: 'agent-x', remote: 'lab/../etc' } })) as ToolAnswer;
      expect(refused.isError).toBe(true);
      expect(refused.content[0]!.text).toMatch(/^400: .*not allowed/);
    } finally {
      await client.close();
    }
  });
});
