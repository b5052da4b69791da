/**
 * @module published-doors-probe
 * Every door of an array published for a closed room (`room.add(array)`: `<room>.scan` with
 * `?room=`), walked as a stranger (anonymous, and a user with no access), a viewer of the room and
 * its owner: the catalog with `?room=`, the specimen's metadata, thumbnail and `/data` (each format,
 * a headset's variant, a range, HEAD and POST), the room's entry, layers and function inputs of
 * another room naming it, agents' tools, publishing over it and removing it, and the room's own
 * doors (picture, Neuroglancer state, scene, its layer's data). A stranger is answered at each
 * as for an array that does not exist, and no answer a stranger gets names the array, its bytes'
 * blob id or its result id (blob and result URLs name content by its hash: only a door that gave
 * the bytes gives them). Its viewer and its owner get the array at every door that reads it.
 */
import { expect } from 'vitest';
import { room } from '../helpers/room.ts';
import { npyBytes } from '../fixtures/specimens/npy-writer.ts';
import { call, closeRoom, type Answer, type TrustHost, type Who } from './trust-host.ts';

const enc = encodeURIComponent;

interface Door {
  name: string;
  method: string;
  /** The path for specimen `id` (`rooms`: the closed room and an open one). */
  path(id: string, rooms: { closed: string; open: string }): string;
  body?(id: string, rooms: { closed: string; open: string }): unknown;
  headers?: Record<string, string>;
}

const mcp = (tool: string, args: (id: string, open: string) => Record<string, unknown>) => (id: string, rooms: { open: string }) => ({
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params: { name: tool, arguments: args(id, rooms.open) },
});
const MCP_HEADERS = { accept: 'application/json, text/event-stream' };

const DOORS: Door[] = [
  { name: 'catalog of the room', method: 'GET', path: (_id, r) => `/api/specimens/?room=${enc(r.closed)}` },
  { name: 'metadata', method: 'GET', path: (id) => `/api/specimens/${id}` },
  { name: 'metadata HEAD', method: 'HEAD', path: (id) => `/api/specimens/${id}` },
  { name: 'thumbnail', method: 'GET', path: (id) => `/api/specimens/${id}/thumbnail` },
  { name: 'data', method: 'GET', path: (id) => `/api/specimens/${id}/data` },
  { name: 'data as npy', method: 'GET', path: (id) => `/api/specimens/${id}/data?format=npy` },
  { name: 'data shaped', method: 'GET', path: (id) => `/api/specimens/${id}/data?max_dim=8&dtype=uint8` },
  { name: 'data to a headset', method: 'GET', path: (id) => `/api/specimens/${id}/data`, headers: { 'user-agent': 'GodotEngine/4.3' } },
  { name: 'data range', method: 'GET', path: (id) => `/api/specimens/${id}/data?format=npy`, headers: { range: 'bytes=0-63' } },
  { name: 'data HEAD', method: 'HEAD', path: (id) => `/api/specimens/${id}/data` },
  { name: 'data POST', method: 'POST', path: (id) => `/api/specimens/${id}/data`, body: () => ({}) },
  { name: 'entry of another room', method: 'PUT', path: (_id, r) => `/api/rooms/${enc(r.open)}/entry`, body: (id) => ({ specimen: id }) },
  {
    name: 'layer of another room',
    method: 'POST',
    path: (_id, r) => `/api/rooms/${enc(r.open)}/layers`,
    body: (id) => ({ source: { specimen: id } }),
  },
  {
    name: 'input of a function',
    method: 'POST',
    path: () => '/api/processing/invoke',
    body: (id, r) => ({ function_name: 'measure', kwargs: { volume: { specimen: id } }, room_id: r.open }),
  },
  { name: 'agent describes it', method: 'POST', path: () => '/mcp', body: mcp('describe_specimen', (id) => ({ id })), headers: MCP_HEADERS },
  {
    name: 'agent shows it',
    method: 'POST',
    path: () => '/mcp',
    body: mcp('show_in_room', (id, open) => ({ specimen: id, room: open })),
    headers: MCP_HEADERS,
  },
  { name: 'room picture', method: 'GET', path: (_id, r) => `/api/rooms/${enc(r.closed)}/image?w=32&h=32` },
  { name: 'room Neuroglancer state', method: 'GET', path: (_id, r) => `/api/rooms/${enc(r.closed)}/neuroglancer` },
  { name: 'room scene', method: 'GET', path: (_id, r) => `/api/rooms/${enc(r.closed)}/scene` },
  { name: "room layer's data", method: 'GET', path: (_id, r) => `/api/rooms/${enc(r.closed)}/layers/scan/data` },
];

/** A 16³ volume with a bright blob off its centre. */
function scanBytes(): Buffer {
  const n = 16;
  const data = new Uint8Array(n * n * n).map((_, i) => (Math.hypot((i % n) - 5, (Math.floor(i / n) % n) - 6, Math.floor(i / n / n) - 7) < 3 ? 200 : 10));
  return npyBytes({ descr: '|u1', shape: [n, n, n], data });
}

/** What a door answered, as text (headers and body), to look for what it must not give. */
async function ask(host: TrustHost, who: Who, door: Door, id: string, rooms: { closed: string; open: string }): Promise<Answer & { text: string }> {
  const body = door.body?.(id, rooms);
  const response = await fetch(`${host.url}${door.path(id, rooms)}`, {
    method: door.method,
    headers: { ...host.as(who), ...door.headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const bytes = Buffer.from(await response.arrayBuffer());
  const text = `${JSON.stringify([...response.headers])}\n${bytes.toString('latin1')}`;
  let parsed: Record<string, unknown> | null = null;
  try {
    parsed = JSON.parse(bytes.toString('utf8')) as Record<string, unknown>;
  } catch {
    parsed = null;
  }
  return { status: response.status, body: parsed, headers: response.headers, text };
}

/** What refused an ask, neutral of names (status and code, or an agent tool's error text); null when nothing refused it. */
function refusal(answer: Answer, names: string[]): string | null {
  const tool = answer.body?.result as { isError?: boolean; content?: { text?: string }[] } | undefined;
  let said: string;
  if (tool) {
    if (!tool.isError) return null;
    said = tool.content?.map((c) => c.text).join(' ') ?? '';
  } else if (answer.status < 400) return null;
  else said = `${answer.status} ${String(answer.body?.code ?? '')}`;
  for (const name of names) said = said.replaceAll(name, '<name>');
  return said;
}

export interface DoorsSeen {
  /** Doors that gave a stranger the array, its name, its blob or result id, or told it apart from nothing. */
  strangerGot: string[];
  /** Read doors that did not give its viewer or owner the array. */
  readersMissed: string[];
  doors: number;
}

/** The room's own doors: refused as a read of the room is (404 `SPC_ERR_ROOM_NOT_VISIBLE`). */
const ROOM_DOORS = new Set(['catalog of the room', 'room picture', 'room Neuroglancer state', 'room scene', "room layer's data"]);

/** Publishes a closed room's array (with a layer of it in the room) and walks every door as each person. */
export async function publishedDoorsProbe(host: TrustHost): Promise<DoorsSeen> {
  const closed = room('lab');
  const open = room('open');
  const rooms = { closed, open };
  await closeRoom(host, closed);
  const id = `${closed}.scan`;
  const published = await fetch(`${host.url}/api/specimens/${id}?filename=scan.npy&room=${enc(closed)}`, {
    method: 'PUT',
    headers: { ...host.as('own'), 'content-type': 'application/octet-stream' },
    body: new Uint8Array(scanBytes()),
  });
  expect(published.status, await published.clone().text()).toBe(201);
  expect((await call(host, 'own', 'POST', `/api/rooms/${enc(closed)}/layers`, { id: 'scan', source: { specimen: id } })).status).toBe(201);
  const owned = await ask(host, 'own', DOORS.find((d) => d.name === 'data as npy')!, id, rooms);
  const secrets = [id, owned.headers.get('x-blob-id'), owned.headers.get('x-result-id')].filter((s): s is string => !!s);
  expect(secrets).toHaveLength(3);
  const madeUp = `${closed}.nothing`;
  const seen: DoorsSeen = { strangerGot: [], readersMissed: [], doors: DOORS.length + LISTS.length + 2 };
  for (const door of DOORS) {
    for (const who of ['anonymous', 'other'] satisfies Who[]) {
      const got = await ask(host, who, door, id, rooms);
      const refused = refusal(got, [id, closed]);
      // A stranger is told what a read of the room tells it, or what it would hear of an array that does not exist.
      const expected = ROOM_DOORS.has(door.name) ? '404 SPC_ERR_ROOM_NOT_VISIBLE' : refusal(await ask(host, who, door, madeUp, rooms), [madeUp, closed]);
      // A refusal may echo the id the request sent (as for an array that does not exist); nothing else may.
      const leaked = secrets.filter((secret) => got.text.includes(secret) && !(secret === id && refused !== null));
      if (refused === null || refused !== expected || leaked.length > 0) {
        seen.strangerGot.push(`${door.name} as ${who}: ${got.status} ${refused} (${leaked.length} secrets)`);
      }
    }
    for (const who of ['vi', 'own'] satisfies Who[]) {
      const got = await ask(host, who, door, id, rooms);
      if (refusal(got, []) !== null) seen.readersMissed.push(`${door.name} as ${who}: ${got.status} ${refusal(got, [])}`);
    }
  }
  await walkWrites(host, id, madeUp, rooms, seen);
  return seen;
}

/** Lists that name what was published for everyone: no one finds the room's array there. */
const LISTS: Door[] = [
  { name: 'catalog', method: 'GET', path: () => '/api/specimens/' },
  { name: 'agent lists', method: 'POST', path: () => '/mcp', body: mcp('list_specimens', () => ({})), headers: MCP_HEADERS },
];

/**
 * The lists, and the writes of the array: publishing over it and removing it are refused to a
 * stranger as for an array that is not there (a removal as of one never published), to its viewer
 * as a write of the room is (403); its owner may (removing it last).
 */
async function walkWrites(host: TrustHost, id: string, madeUp: string, rooms: { closed: string; open: string }, seen: DoorsSeen): Promise<void> {
  for (const door of LISTS) {
    for (const who of ['anonymous', 'other', 'vi', 'own'] satisfies Who[]) {
      const got = await ask(host, who, door, id, rooms);
      if (got.status !== 200 || got.text.includes(id)) seen.strangerGot.push(`${door.name} as ${who}: ${got.status}, names it: ${got.text.includes(id)}`);
    }
  }
  const write = async (who: Who, method: string, name: string) => {
    const put = method === 'PUT';
    const path = put ? `/api/specimens/${name}?filename=scan.npy` : `/api/specimens/${name}`;
    const headers = { ...host.as(who), ...(put ? { 'content-type': 'application/octet-stream' } : {}) };
    const response = await fetch(`${host.url}${path}`, { method, headers, body: put ? new Uint8Array(scanBytes()) : undefined });
    const text = await response.text();
    return `${response.status} ${text ? String((JSON.parse(text) as { code?: string }).code ?? '') : ''}`;
  };
  const expected: [Who, string, string][] = [
    ['anonymous', 'PUT', '404 SPC_ERR_SPECIMEN_NOT_FOUND'],
    ['other', 'PUT', '404 SPC_ERR_SPECIMEN_NOT_FOUND'],
    ['anonymous', 'DELETE', await write('anonymous', 'DELETE', madeUp)],
    ['other', 'DELETE', await write('other', 'DELETE', madeUp)],
    ['vi', 'PUT', '403 SPC_ERR_ROOM_WRITE_FORBIDDEN'],
    ['vi', 'DELETE', '403 SPC_ERR_ROOM_WRITE_FORBIDDEN'],
    ['own', 'PUT', '200 '],
    ['own', 'DELETE', '204 '],
  ];
  for (const [who, method, answer] of expected) {
    // Published over by its owner without naming a room, it stays the room's.
    const stayed = who !== 'own' || method !== 'DELETE' || (await call(host, 'anonymous', 'GET', `/api/specimens/${id}`)).status === 404;
    if (!stayed) seen.strangerGot.push('replaced, it left the room');
    const got = await write(who, method, id);
    if (got !== answer) (who === 'own' || who === 'vi' ? seen.readersMissed : seen.strangerGot).push(`${method} as ${who}: ${got}, not ${answer}`);
  }
}
