/**
 * Arrays published for a room's layers (`PUT /api/specimens/{id}?room=R`) over real HTTP: the
 * catalog lists them only to a request naming that room, every route serves them as any
 * published specimen, and a malformed room is a 400 naming it.
 */
import { describe, expect, it } from 'vitest';
import { createClient } from '../../core/client/index.ts';
import { createTestApp } from '../helpers/create-test-app.ts';
import { npyBytes } from '../helpers/specimens-dir.ts';

const OCTET = { 'content-type': 'application/octet-stream' };

async function host(): Promise<string> {
  const app = await createTestApp();
  return app.listen({ host: '127.0.0.1', port: 0 });
}

function put(url: string, id: string, query: string) {
  return fetch(`${url}/api/specimens/${id}?${query}`, { method: 'PUT', headers: OCTET, body: new Uint8Array(npyBytes([2, 3, 4])) });
}

async function ids(url: string, query = ''): Promise<string[]> {
  const answer = await fetch(`${url}/api/specimens${query}`);
  expect(answer.status).toBe(200);
  return ((await answer.json()) as { id: string }[]).map((entry) => entry.id);
}

describe('arrays published for a room', () => {
  it('are listed only with ?room=<room>, and served like any published specimen', async () => {
    const url = await host();
    const before = await ids(url);
    expect((await put(url, 'lab.scan', 'filename=scan.npy&room=lab')).status).toBe(201);
    expect((await put(url, 'shared', 'filename=shared.npy')).status).toBe(201);
    expect((await put(url, 'other.scan', 'filename=scan.npy&room=other')).status).toBe(201);

    expect((await ids(url)).sort()).toEqual([...before, 'shared'].sort());
    const lab = await ids(url, '?room=lab');
    expect(lab).toContain('lab.scan');
    expect(lab).toContain('shared');
    expect(lab).not.toContain('other.scan');
    const entry = ((await (await fetch(`${url}/api/specimens/?room=lab`)).json()) as { id: string; room?: string }[]).find((e) => e.id === 'lab.scan');
    expect(entry).toMatchObject({ room: 'lab', type: 'volume' });
    // The client a page uses lists them for the page's room (whose entry may be one of them).
    const client = createClient({ baseUrl: url });
    expect((await client.listSpecimens(undefined, 'lab')).map((e) => e.id)).toContain('lab.scan');
    expect((await client.listSpecimens()).map((e) => e.id)).not.toContain('lab.scan');

    // Named by id, it is reached from anywhere: the room's layers and anyone given the id.
    expect((await fetch(`${url}/api/specimens/lab.scan`)).status).toBe(200);
    expect((await fetch(`${url}/api/specimens/lab.scan/data`)).status).toBe(200);
    expect((await fetch(`${url}/api/specimens/lab.scan`, { method: 'DELETE' })).status).toBe(204);
    expect(await ids(url, '?room=lab')).not.toContain('lab.scan');
  });

  it('refuses a room with a control character, naming it', async () => {
    const url = await host();
    const published = await put(url, 'x', 'filename=x.npy&room=a%0Ab');
    expect(published.status).toBe(400);
    expect(((await published.json()) as { detail: string }).detail).toMatch(/'room' holds a control character/);
    const listed = await fetch(`${url}/api/specimens?room=a%00b`);
    expect(listed.status).toBe(400);
    expect(((await listed.json()) as { detail: string }).detail).toMatch(/room holds a control character/);
  });
});
