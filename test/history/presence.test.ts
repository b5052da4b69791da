/**
 * @module presence.test
 * Who is in a room, over real HTTP and WebSockets on one host: followers named by `?name=` and
 * `?kind=` listed by `GET .../presence` and told to each other as `presence` events, leaving when
 * their stream closes; a live socket's poses reaching the other peers stamped with who sent
 * them; bad names, kinds and frames refused (a 400 before the upgrade, or a close with its
 * reason: non-finite numbers, a 1 MB frame, a 1,000 Hz sender); a socket that stops answering
 * pings taken out within 5 s with its leave told.
 */
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { Peer } from '../../core/presence/peer.ts';
import { fileTestApp } from '../helpers/create-test-app.ts';
import { room } from '../helpers/room.ts';
import { openStream } from '../helpers/sse-reader.ts';
import { waitFor } from '../helpers/wait-for.ts';

const server = fileTestApp();

const roster = async (r: string): Promise<Peer[]> => ((await (await fetch(`${server.url}/api/rooms/${r}/presence`)).json()) as { peers: Peer[] }).peers;
const names = async (r: string) => (await roster(r)).map((p) => `${p.name}/${p.kind}`);

interface Live {
  socket: WebSocket;
  messages: { type: string; [k: string]: unknown }[];
  closed: Promise<{ code: number; reason: string }>;
}

async function live(r: string, query: string, options: WebSocket.ClientOptions = {}): Promise<Live> {
  const socket = new WebSocket(`${server.url.replace('http', 'ws')}/api/rooms/${r}/live${query}`, options);
  const messages: Live['messages'] = [];
  socket.on('message', (data) => messages.push(JSON.parse(String(data)) as Live['messages'][number]));
  const closed = new Promise<{ code: number; reason: string }>((resolve) => socket.on('close', (code, reason) => resolve({ code, reason: String(reason) })));
  await new Promise((resolve, reject) => {
    socket.once('open', resolve);
    socket.once('error', reject);
  });
  await waitFor(() => (messages.some((m) => m.type === 'welcome') ? true : undefined), 'the welcome');
  return { socket, messages, closed };
}

const placed = { position: [0, 1.6, 0], orientation: [0, 0, 0, 1] };

describe('presence', () => {
  it('lists named followers, tells them who joins and leaves, and takes out a closed stream', async () => {
    const r = room('presence');
    const ada = await openStream(`${server.url}/api/rooms/${r}/events?name=ada&kind=page`);
    const adaId = ada.response.headers.get('x-peer-id');
    await waitFor(async () => ((await names(r)).length === 1 ? true : undefined), 'ada listed');
    const bo = await openStream(`${server.url}/api/rooms/${r}/events?name=bo&kind=notebook`);
    const change = (e: { event: string; data: unknown }) => (e.event === 'presence' ? (e.data as { op: string; peer: Peer }) : null);
    expect((await ada.next((e) => change(e)?.op === 'join' && change(e)?.peer.name === 'bo')).data).toMatchObject({
      op: 'join',
      peer: { name: 'bo', kind: 'notebook', user: 'anonymous' },
    });
    await waitFor(async () => ((await names(r)).length === 2 ? true : undefined), 'bo listed');
    expect(await names(r)).toEqual(['ada/page', 'bo/notebook']);
    expect((await roster(r))[0]!.id).toBe(adaId);
    bo.close();
    expect((await ada.next((e) => change(e)?.op === 'leave')).data).toMatchObject({ op: 'leave', peer: { name: 'bo' } });
    expect(await names(r)).toEqual(['ada/page']);
    ada.close();
    await waitFor(async () => ((await names(r)).length === 0 ? true : undefined), 'the room to empty');
  });

  it('refuses a name over 64 characters and an unknown kind, on streams and live sockets', async () => {
    const r = room('presence');
    for (const path of ['events', 'live']) {
      for (const query of [`?name=${'x'.repeat(65)}`, '?kind=robot']) {
        const answer = await fetch(`${server.url}/api/rooms/${r}/${path}${query}`);
        expect(answer.status).toBe(400);
        expect(await answer.json()).toMatchObject({ code: 'SPC_ERR_PRESENCE_INVALID' });
      }
    }
    const plain = await fetch(`${server.url}/api/rooms/${r}/live`);
    expect(plain.status).toBe(426);
  });

  it('carries each pose to the other peers, stamped with its sender', async () => {
    const r = room('live');
    const a = await live(r, '?name=ann&kind=headset');
    const b = await live(r, '?name=ben&kind=page');
    expect(await names(r)).toEqual(['ann/headset', 'ben/page']);
    a.socket.send(JSON.stringify({ head: placed, hands: { left: placed }, pointer: placed, t: 42 }));
    const pose = await waitFor(() => b.messages.find((m) => m.type === 'pose'), 'the pose at ben');
    expect(pose).toMatchObject({ name: 'ann', kind: 'headset', pose: { head: placed, hands: { left: placed }, pointer: placed, t: 42 } });
    expect(pose.peer).toBe((a.messages[0]!.peer as Peer).id);
    expect(a.messages.filter((m) => m.type === 'pose')).toEqual([]);
    b.socket.close();
    await waitFor(() => a.messages.find((m) => m.type === 'leave'), 'ben’s leave at ann');
    a.socket.close();
  });

  it('lets a live socket carry the poses of a follower already listed, who stays when the socket closes', async () => {
    const r = room('live');
    const follower = await openStream(`${server.url}/api/rooms/${r}/events?name=cy&kind=headset`);
    const id = follower.response.headers.get('x-peer-id')!;
    await waitFor(async () => ((await names(r)).length === 1 ? true : undefined), 'cy listed');
    const socket = await live(r, `?peer=${id}`);
    expect(socket.messages[0]).toMatchObject({ type: 'welcome', peer: { id, name: 'cy', kind: 'headset' } });
    expect(await names(r)).toEqual(['cy/headset']);
    socket.socket.close();
    await socket.closed;
    expect(await names(r)).toEqual(['cy/headset']);
    const stranger = await fetch(`${server.url}/api/rooms/${r}/live?peer=p-nobody`);
    expect(stranger.status).toBe(400);
    follower.close();
  });

  it('lets a follower open its live socket again as another kind, the new socket served once the old one is gone', async () => {
    const r = room('live');
    const follower = await openStream(`${server.url}/api/rooms/${r}/events?name=pat&kind=page`);
    const id = follower.response.headers.get('x-peer-id')!;
    await waitFor(async () => ((await names(r)).length === 1 ? true : undefined), 'pat listed');
    const before = await live(r, `?peer=${id}`);
    // A page entering VR: its socket again, as a headset, before the old one has closed.
    const after = await live(r, `?peer=${id}&kind=headset`);
    expect(after.messages[0]).toMatchObject({ type: 'welcome', peer: { id, name: 'pat', kind: 'headset' } });
    before.socket.close();
    await before.closed;
    expect(await names(r)).toEqual(['pat/headset']);
    const ann = await live(r, '?name=ann&kind=headset');
    ann.socket.send(JSON.stringify({ head: placed }));
    expect(await waitFor(() => after.messages.find((m) => m.type === 'pose'), 'ann’s pose at pat’s new socket')).toMatchObject({ name: 'ann' });
    for (const socket of [after, ann]) socket.socket.close();
    follower.close();
  });

  it('closes with the reason a socket that sends non-finite numbers, a 1 MB frame, or 1,000 poses a second', async () => {
    const r = room('live');
    const nan = await live(r, '?name=nan');
    nan.socket.send('{"head":{"position":[1e400,0,0],"orientation":[0,0,0,1]}}');
    expect(await nan.closed).toEqual({ code: 1007, reason: 'head.position[0] must be a finite number within ±1e6' });
    const stray = await live(r, '?name=stray');
    stray.socket.send(JSON.stringify({ head: placed, secret: 1 }));
    expect((await stray.closed).code).toBe(1007);
    const big = await live(r, '?name=big');
    big.socket.send('x'.repeat(1 << 20));
    expect((await big.closed).code).toBe(1009);
    const fast = await live(r, '?name=fast');
    for (let i = 0; i < 200 && fast.socket.readyState === WebSocket.OPEN; i++) fast.socket.send(JSON.stringify({ head: placed }));
    expect(await fast.closed).toEqual({ code: 1008, reason: 'poses faster than 20 a second' });
    await waitFor(async () => ((await names(r)).length === 0 ? true : undefined), 'every closed socket to leave');
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
  });

  it('takes out within 5 s a socket that stops answering pings, telling the others', async () => {
    const r = room('live');
    const stays = await live(r, '?name=stays');
    const silent = await live(r, '?name=silent', { autoPong: false });
    const id = (silent.messages[0]!.peer as Peer).id;
    const from = Date.now();
    await waitFor(() => stays.messages.find((m) => m.type === 'leave' && m.peer === id), 'the silent peer’s leave');
    expect(Date.now() - from).toBeLessThan(5000);
    expect(await names(r)).toEqual(['stays/headset']);
    stays.socket.close();
    silent.socket.terminate();
  });
});
