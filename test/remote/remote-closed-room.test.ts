/**
 * A remote image published for a closed room follows the room's access at its in-place store as
 * at its metadata: a stranger (anonymous, or a user the room does not name) gets 404 as for no
 * such specimen, its viewer reads the image's keys.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, room } from '../helpers/create-test-app.ts';
import { bearer, peopleDir } from '../people/people-helpers.ts';
import { samplesOf, startRemoteServer, writeV05, type RemoteServer } from '../helpers/zarr-remote.ts';

const people = await peopleDir(['own', 'vi', 'other']);

let remote: RemoteServer;
beforeAll(async () => {
  remote = await startRemoteServer();
  const spec = { path: 'cells.ome.zarr', axes: 'zyx', dtype: 'uint16' as const, chunks: [4, 8, 8], compression: 'zstd' as const, scale: [1, 1, 1] };
  await writeV05(remote.files, { ...spec, levels: [{ shape: [8, 16, 16], data: samplesOf('uint16', 8 * 16 * 16, 3) }] });
});
afterAll(() => remote?.close());

describe("a closed room's remote image", () => {
  it('is read in place by its viewer and by no stranger', async () => {
    const host = await createTestApp({ dataDir: people.dir, remotes: { lab: remote.url } });
    const r = room('closed-remote');
    const own = bearer(people.tokens.own!);
    const closed = await host.inject({ method: 'PUT', url: `/api/rooms/${r}/access`, headers: own, payload: { viewers: ['vi'], public: 'none' } });
    expect(closed.statusCode, closed.body).toBe(200);
    const put = await host.inject({ method: 'PUT', url: `/api/specimens/cells?room=${r}`, headers: own, payload: { remote: 'lab/cells.ome.zarr' } });
    expect(put.statusCode, put.body).toBe(201);
    const id = (put.json() as { id: string }).id;

    for (const door of ['', '/data?format=npy']) {
      const answer = await host.inject({ url: `/api/specimens/${encodeURIComponent(id)}${door}` });
      expect(answer.statusCode, `'${door}' as anonymous: ${answer.body.slice(0, 200)}`).toBe(404);
    }
    for (const key of ['zarr.json', '0/zarr.json', '0/c/0/0/0']) {
      const url = `/api/specimens/${encodeURIComponent(id)}/zarr/${key}`;
      const viewer = await host.inject({ url, headers: bearer(people.tokens.vi!) });
      expect(viewer.statusCode, `${key} as its viewer: ${viewer.body.slice(0, 200)}`).toBe(200);
      for (const [who, headers] of [['anonymous', {}], ['other', bearer(people.tokens.other!)]] as const) {
        const stranger = await host.inject({ url, headers });
        expect(stranger.statusCode, `${key} as ${who}: ${stranger.body.slice(0, 200)}`).toBe(404);
        expect(stranger.json().code).toBe('SPC_ERR_SPECIMEN_NOT_FOUND');
      }
    }
    await host.close();
  });
});
