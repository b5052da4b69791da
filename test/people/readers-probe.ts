/**
 * @module readers-probe
 * What someone keeps open on a room ends once they may no longer read it: a viewer taken off a
 * closed room's access loses its event stream and its live socket (closed 1008), and a user
 * removed loses every stream and socket it had open and the stream tickets it was given, while
 * those who may still read keep theirs. The change is made through one host and the readers sit
 * on another when the home is a service. Each probe answers how long after the change (the
 * access change's answer; the removal's start and its end) the last reader ended (ms), for the
 * report; nothing waits a fixed time.
 */
import { expect } from 'vitest';
import WebSocket from 'ws';
import { room } from '../helpers/room.ts';
import { openStream, type StreamReader } from '../helpers/sse-reader.ts';
import { settled } from '../helpers/wait-for.ts';
import { call, type TrustHost, type Who } from './trust-host.ts';

const enc = encodeURIComponent;

interface Live {
  socket: WebSocket;
  closed: Promise<{ code: number; reason: string; at: number }>;
}

/** A live socket of room `r` on `base` as `who`, once welcomed. */
async function live(host: TrustHost, base: string, r: string, who: Who): Promise<Live> {
  const socket = new WebSocket(`${base.replace('http', 'ws')}/api/rooms/${enc(r)}/live?kind=headset`, { headers: host.as(who) });
  const closed = new Promise<Live['closed'] extends Promise<infer T> ? T : never>((resolve) =>
    socket.on('close', (code, reason) => resolve({ code, reason: String(reason), at: Date.now() })),
  );
  const welcomed = new Promise((resolve) => socket.on('message', (data) => JSON.parse(String(data)).type === 'welcome' && resolve(true)));
  const opened = new Promise((resolve, reject) => {
    socket.once('open', resolve);
    socket.once('error', reject);
  });
  await settled(opened, `${who}'s live socket of ${r} to open`);
  await settled(welcomed, `${who}'s live socket of ${r} to be welcomed`);
  return { socket, closed };
}

/** A stream of room `r` on `base` with `headers` (or a ticket in `query`), once its scene came. */
async function stream(base: string, r: string, headers: Record<string, string>, query = ''): Promise<StreamReader & { endedAt: Promise<number> }> {
  const reader = await settled(openStream(`${base}/api/rooms/${enc(r)}/events${query}`, headers), `a stream of ${r} to answer`);
  await reader.next((e) => e.event === 'scene');
  return Object.assign(reader, { endedAt: reader.ended.then(() => Date.now()) });
}

/** Whether a stream still carries the room's changes: a view change made now reaches it. */
async function stillCarries(host: TrustHost, r: string, reader: StreamReader): Promise<void> {
  const opacity = Math.round(Math.random() * 1000) / 1000;
  expect((await call(host, 'own', 'PUT', `/api/rooms/${enc(r)}/view`, { opacity })).status).toBe(200);
  await reader.next((e) => e.event === 'view' && (e.data as { opacity?: number }).opacity === opacity);
}

/** The readers' side of a service: the other host when there is one. */
const far = (host: TrustHost) => host.otherUrl ?? host.url;

/** A viewer taken off a closed room's access loses its stream and its socket; the owner keeps both. */
export async function accessChangeProbe(host: TrustHost): Promise<number> {
  const r = room('lab');
  expect((await call(host, 'own', 'PUT', `/api/rooms/${enc(r)}/access`, { viewers: ['vi'], public: 'none' })).status).toBe(200);
  const [viewerStream, ownerStream] = await Promise.all([stream(far(host), r, host.as('vi')), stream(far(host), r, host.as('own'))]);
  const [viewerSocket, ownerSocket] = await Promise.all([live(host, far(host), r, 'vi'), live(host, far(host), r, 'own')]);
  const changed = await call(host, 'own', 'PUT', `/api/rooms/${enc(r)}/access`, { viewers: [], public: 'none' });
  expect(changed.status).toBe(200);
  const answered = Date.now();
  const endedAt = await settled(viewerStream.endedAt, "the viewer's stream to end after the access change");
  const closed = await settled(viewerSocket.closed, "the viewer's socket to close after the access change");
  expect(closed).toMatchObject({ code: 1008, reason: 'no longer allowed to read this room' });
  // Back again, the viewer is told the room is not there.
  expect((await call(host, 'vi', 'GET', `/api/rooms/${enc(r)}/events`, undefined, far(host))).status).toBe(404);
  await stillCarries(host, r, ownerStream);
  expect(ownerSocket.socket.readyState).toBe(WebSocket.OPEN);
  ownerStream.close();
  ownerSocket.socket.close();
  return Math.max(endedAt, closed.at) - answered;
}

/**
 * A user removed (by `remove`, as `vitrine users remove` does) loses its streams and sockets of a
 * closed room it edited, and the ticket it was given before, and is dropped from the room's
 * access; the owner keeps its own.
 */
export async function removalProbe(host: TrustHost, remove: (name: string) => Promise<void>): Promise<{ sinceBegan: number; sinceDone: number }> {
  const r = room('lab');
  expect((await call(host, 'own', 'PUT', `/api/rooms/${enc(r)}/access`, { editors: ['gone'], public: 'none' })).status).toBe(200);
  const open = room('open');
  const streams = await Promise.all([stream(far(host), r, host.as('gone')), stream(host.url, r, host.as('gone')), stream(far(host), open, host.as('gone'))]);
  const sockets = await Promise.all([live(host, far(host), r, 'gone'), live(host, host.url, open, 'gone')]);
  const ticket = await call(host, 'gone', 'POST', '/api/tickets');
  expect(ticket.status).toBe(201);
  const owner = await stream(far(host), r, host.as('own'));
  // From when the removal begins (a command's own start takes most of its run).
  const began = Date.now();
  await settled(remove('gone'), "the removal of 'gone' to end");
  const done = Date.now();
  const ends = [];
  for (const [i, s] of streams.entries()) ends.push(await settled(s.endedAt, `the removed user's stream ${i + 1} of 3 to end`));
  for (const [i, s] of sockets.entries()) ends.push((await settled(s.closed, `the removed user's socket ${i + 1} of 2 to close`)).at);
  for (const socket of sockets) expect(await socket.closed).toMatchObject({ code: 1008 });
  const usedUrl = `${far(host)}/api/rooms/${enc(r)}/events?ticket=${ticket.body!.ticket as string}`;
  const used = await settled(fetch(usedUrl), "the removed user's ticket to be answered");
  expect(used.status).toBe(401);
  expect(await used.json()).toMatchObject({ code: 'SPC_ERR_TICKET_UNKNOWN' });
  await stillCarries(host, r, owner);
  owner.close();
  // The room's access no longer names the user (a user added later under that name inherits nothing).
  for (const base of new Set([host.url, far(host)])) {
    expect((await call(host, 'own', 'GET', `/api/rooms/${enc(r)}/access`, undefined, base)).body).toMatchObject({ owner: 'own', editors: [] });
  }
  return { sinceBegan: Math.max(...ends) - began, sinceDone: Math.max(...ends) - done };
}
