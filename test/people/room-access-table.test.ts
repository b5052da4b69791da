/**
 * @module room-access-table.test
 * Every route of the host, read from its own route table, against a closed room and an open one,
 * as the room's owner, an editor, a viewer, another user, someone anonymous, and someone forging
 * a login proxy's header from an address the host does not trust. A route that names a room (in
 * its path, or as `room_id`) refuses those the room refuses: reads 404, writes 403 (401 when
 * anonymous); every other route is listed here by name as using no room, so a room route added
 * later and left unguarded fails this test instead of leaking a closed room. A route naming a
 * snapshot is asked about a snapshot of each room (one of its own content): it answers as the
 * room's reads do, an unknown snapshot's 404 to those the room refuses, a verify (a POST that
 * only reads) included.
 */
import { describe, expect, it } from 'vitest';
import { fileTestApp } from '../helpers/create-test-app.ts';
import { room } from '../helpers/room.ts';
import { bearer, peopleDir } from './people-helpers.ts';
import { routeTable, type Route } from './route-table.ts';

const people = await peopleDir(['own', 'ed', 'vi', 'other']);
// Only ::1 is trusted; the tests connect from 127.0.0.1, so their proxy header is a forgery.
const host = fileTestApp({ dataDir: people.dir, trustProxy: ['::1'] });

/** Routes that use no room (`METHOD pattern`); the access routes answer for themselves. */
const NOT_ROOM = new Set([
  'GET /api/events', 'DELETE /api/jobs/:id', 'GET /api/jobs/:id/events', 'GET /api/jobs/:id/progress', 'GET /api/jobs/:id/result',
  'GET /api/results/:store|:id', 'GET /api/results/:store|:id*', 'GET /api/specimens', 'GET /api/specimens/', 'GET /api/specimens/reload',
  'GET /api/specimens/:id', 'PUT /api/specimens/:id', 'DELETE /api/specimens/:id', 'GET /api/specimens/:id/thumbnail',
  'GET /api/processing/functions', 'GET /api/processing/functions/:name/schema',
  'GET /api/processing/cache/stats', 'POST /api/processing/cache/clear', 'GET /api/blobs/:blob_id', 'POST /api/uploads',
  'GET /api/colormaps', 'POST /api/tickets', 'GET /api/me', 'GET /docs', 'GET /docs/', 'GET /docs/static/theme/vitrine.css', 'GET /docs/static/index.html',
  'GET /docs/static/swagger-initializer.js', 'GET /docs/*', 'GET /docs/json', 'GET /docs/yaml', 'GET /openapi.json', 'GET /metrics',
  'GET /mcp', 'DELETE /mcp', 'GET /healthz', 'GET /readyz', 'GET /client.js', 'PUT /api/rooms/:room_id/access',
  // A session file taken in, the plugins deployed: no room is named.
  'POST /api/snapshots', 'GET /api/plugins',
  // The names of the places the host reads images from: the host's, not a room's.
  'GET /api/remotes',
  // A remote specimen's image read in place (`/api/specimens/:id/zarr/*`, as the route tree
  // prints it): named by the specimen, whose own room the people hook checks as for its metadata.
  'GET /api/specimens/:id*',
  // A result's levels of detail, a route per kind of key: named by the result, not by a room.
  ...['info', 'segments.json', 'zarr.json', 'coarse/:k', ':segment', ':segment.index', ':segment.json', ':segment/:level', ':segment/:level.json',
    ':segment/:level/:fragment.glb'].map((key) => `GET /api/results/:store|:id/meshes/${key}`),
]);

/** Routes that name a snapshot: asked about one of the room's; a refused read is an unknown snapshot. */
const SNAPSHOT_ROUTES = new Set(['GET /api/snapshots/:id', 'POST /api/snapshots/:id/verify']);
/** Routes that only read although not by GET. */
const POST_READS = new Set(['POST /api/snapshots/:id/verify']);

const REFUSALS = new Set(['SPC_ERR_ROOM_NOT_VISIBLE', 'SPC_ERR_ROOM_SIGN_IN', 'SPC_ERR_ROOM_WRITE_FORBIDDEN', 'SPC_ERR_SNAPSHOT_NOT_FOUND']);

type Who = 'own' | 'ed' | 'vi' | 'other' | 'anonymous' | 'forged';
const WHO: Who[] = ['own', 'ed', 'vi', 'other', 'anonymous', 'forged'];

function headersOf(who: Who): Record<string, string> {
  if (who === 'anonymous') return {};
  if (who === 'forged') return { 'x-forwarded-user': 'own' };
  return bearer(people.tokens[who]!);
}

/** A request on `route` naming room `r`: in its path, its query and (for writes) its body. MCP calls a tool on it. */
function requestOf(route: Route, r: string, who: Who): { url: string; init: RequestInit } {
  const named = SNAPSHOT_ROUTES.has(`${route.method} ${route.url}`) ? route.url.replace(':id', snapshots.get(r)!) : route.url;
  const path = named.replace(':room_id', encodeURIComponent(r)).replace(/:[a-z_]+/g, 'x').replace('*', 'x');
  const headers: Record<string, string> = { ...headersOf(who), accept: 'application/json' };
  if (route.method === 'GET') return { url: `${host.url}${path}?room_id=${encodeURIComponent(r)}`, init: { headers } };
  const body = route.url === '/mcp' ? mcpCall(r) : { room_id: r };
  headers['content-type'] = 'application/json';
  if (route.url === '/mcp') headers.accept = 'application/json, text/event-stream';
  return { url: `${host.url}${path}?room_id=${encodeURIComponent(r)}`, init: { method: route.method, headers, body: JSON.stringify(body) } };
}

function mcpCall(r: string) {
  return { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'set_view', arguments: { room: r, opacity: 0.5 } } };
}

/** The refusal code a request got, or null when the room let it through (whatever the route then said). */
async function refusalOf(route: Route, r: string, who: Who): Promise<{ status: number; code: string | null }> {
  const { url, init } = requestOf(route, r, who);
  const controller = new AbortController();
  const response = await fetch(url, { ...init, redirect: 'manual', signal: controller.signal });
  const type = response.headers.get('content-type') ?? '';
  if (response.status < 400 || !type.includes('json')) {
    controller.abort();
    return { status: response.status, code: null };
  }
  const code = ((await response.json()) as { code?: string }).code ?? null;
  return { status: response.status, code: code && (REFUSALS.has(code) || code === 'SPC_ERR_TOKEN_UNKNOWN') ? code : null };
}

function expected(route: Route, who: Who): number | null {
  const write = route.method !== 'GET' && !POST_READS.has(`${route.method} ${route.url}`);
  if (who === 'own' || who === 'ed') return null;
  if (who === 'vi') return write ? 403 : null;
  if (who === 'other') return write ? 403 : 404;
  return write ? 401 : 404;
}

/** Each room's snapshot by room: taken of its own content (a mark naming it), so no other room's is the same. */
const snapshots = new Map<string, string>();

async function takeSnapshot(r: string): Promise<void> {
  const headers = { ...bearer(people.tokens.own!), 'content-type': 'application/json' };
  const mark = JSON.stringify({ kind: 'point', points: [[0, 0, 0]], label: r });
  expect((await fetch(`${host.url}/api/rooms/${r}/annotations`, { method: 'POST', headers, body: mark })).status).toBe(201);
  const taken = await fetch(`${host.url}/api/rooms/${r}/snapshots`, { method: 'POST', headers });
  expect(taken.status).toBe(201);
  snapshots.set(r, ((await taken.json()) as { id: string }).id);
}

async function closedRoom(): Promise<string> {
  const r = room('closed');
  const body = JSON.stringify({ editors: ['ed'], viewers: ['vi'], public: 'none' });
  const headers = { ...bearer(people.tokens.own!), 'content-type': 'application/json' };
  const set = await fetch(`${host.url}/api/rooms/${r}/access`, { method: 'PUT', headers, body });
  expect(set.status).toBe(200);
  await takeSnapshot(r);
  return r;
}

async function openRoom(): Promise<string> {
  const r = room('open');
  await takeSnapshot(r);
  return r;
}

describe('every route against a closed room', () => {
  it('guards each route that names a room, and only the routes listed here use none', async () => {
    const routes = routeTable(host.app);
    const r = await closedRoom();
    const unguarded: string[] = [];
    for (const route of routes) {
      const { code } = await refusalOf(route, r, 'anonymous');
      if (code === null) unguarded.push(`${route.method} ${route.url}`);
    }
    expect(unguarded.sort()).toEqual([...NOT_ROOM].sort());
  });

  it('answers each person as the room says, and an open room lets everyone through', async () => {
    const roomRoutes = routeTable(host.app).filter((route) => !NOT_ROOM.has(`${route.method} ${route.url}`));
    expect(roomRoutes.length).toBeGreaterThan(25);
    const closed = await closedRoom();
    const open = await openRoom();
    const got: string[] = [];
    const want: string[] = [];
    for (const route of roomRoutes) {
      for (const who of WHO) {
        const name = `${route.method} ${route.url} as ${who}`;
        const shut = await refusalOf(route, closed, who);
        got.push(`${name}: ${shut.code ? shut.status : 'through'}`);
        want.push(`${name}: ${expected(route, who) ?? 'through'}`);
        const free = await refusalOf(route, open, who);
        got.push(`${name} (open): ${free.code ? free.status : 'through'}`);
        want.push(`${name} (open): through`);
      }
    }
    expect(got).toEqual(want);
  });
});
