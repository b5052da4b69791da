/**
 * A room's history and presence on a Redis service of two host processes: changes made on
 * both hosts at once land in one log, in one order, that both hosts answer alike; followers on
 * either host are listed by both and hear each other come; a pose sent on one host reaches a
 * peer on the other; and a host killed outright has its followers taken out, their leave told,
 * within 5 s; a frame sent the moment a socket opens is checked like any other. Agent sockets
 * on both hosts get their client ids from one count, and both hosts' rosters mark the same
 * executor: the oldest socket of the service, whichever host holds it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { LogEntry } from '../../core/history/room-log-store.ts';
import type { Peer } from '../../core/presence/peer.ts';
import type { RunningHost } from '../helpers/spawn-host.ts';
import { connectAgent, type AgentClient } from '../helpers/agent-client.ts';
import { openStream, type StreamReader } from '../helpers/sse-reader.ts';
import { waitFor } from '../helpers/wait-for.ts';
import { room, startService, type Service } from './service.ts';

let service: Service;
let hosts: RunningHost[];
beforeAll(async () => {
  service = await startService();
  hosts = await Promise.all([service.host(), service.host()]);
}, 180_000);

const streams: StreamReader[] = [];
afterAll(() => streams.forEach((s) => s.close()));

const put = (host: RunningHost, path: string, body: unknown) =>
  fetch(`${host.url}${path}`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
const getJson = async <T>(host: RunningHost, path: string): Promise<T> => (await (await fetch(`${host.url}${path}`)).json()) as T;
const log = async (host: RunningHost, r: string) => (await getJson<{ entries: LogEntry[] }>(host, `/api/rooms/${r}/log?limit=10000`)).entries;
const roster = async (host: RunningHost, r: string) => (await getJson<{ peers: Peer[] }>(host, `/api/rooms/${r}/presence`)).peers.map((p) => p.name);

describe('a room’s history on a Redis service of two hosts', () => {
  it('keeps changes made on both hosts at once in one order', async () => {
    const r = room('log');
    const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => put(hosts[i % 2]!, `/api/rooms/${r}/view`, { opacity: (i + 1) / 100 })));
    expect(answers.every((a) => a.status === 200)).toBe(true);
    const [a, b] = await Promise.all([log(hosts[0]!, r), log(hosts[1]!, r)]);
    expect(a.map((e) => e.seq)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    expect(b).toEqual(a);
    expect(new Set(a.map((e) => (e.view as { opacity: number }).opacity)).size).toBe(40);
  });

  it('lists followers of both hosts and carries a pose from one host to the other', async () => {
    const r = room('live');
    const ada = await openStream(`${hosts[0]!.url}/api/rooms/${r}/events?name=ada`);
    streams.push(ada);
    const bo = await openStream(`${hosts[1]!.url}/api/rooms/${r}/events?name=bo`);
    streams.push(bo);
    await ada.next((e) => e.event === 'presence' && (e.data as { peer: Peer }).peer.name === 'bo');
    expect(await roster(hosts[0]!, r)).toEqual(['ada', 'bo']);
    expect(await roster(hosts[1]!, r)).toEqual(['ada', 'bo']);

    const open = (host: RunningHost, name: string) => {
      const socket = new WebSocket(`${host.url.replace('http', 'ws')}/api/rooms/${r}/live?name=${name}`);
      const got: { type: string; name?: string }[] = [];
      socket.on('message', (data) => got.push(JSON.parse(String(data)) as { type: string }));
      return { socket, got };
    };
    const sender = open(hosts[0]!, 'sender');
    const receiver = open(hosts[1]!, 'receiver');
    await waitFor(() => (sender.got.length && receiver.got.length ? true : undefined), 'both sockets welcomed');
    const pose = JSON.stringify({ head: { position: [1, 2, 3], orientation: [0, 0, 0, 1] } });
    // Until the receiver's host has subscribed, a pose may pass it by: send until one arrives.
    await waitFor(() => {
      sender.socket.send(pose);
      return receiver.got.find((m) => m.type === 'pose');
    }, 'the pose on the other host', 30_000, 100);
    expect(receiver.got.find((m) => m.type === 'pose')).toMatchObject({ name: 'sender', pose: { head: { position: [1, 2, 3] } } });
    sender.socket.close();
    receiver.socket.close();
  });

  it('checks a frame sent the moment the socket opens, before the roster has answered', async () => {
    const socket = new WebSocket(`${hosts[0]!.url.replace('http', 'ws')}/api/rooms/${room('live')}/live?name=eager`);
    const closed = new Promise<[number, string]>((resolve) => socket.on('close', (code, reason) => resolve([code, String(reason)])));
    socket.on('open', () => socket.send('{"head":{"position":[1e999,0,0],"orientation":[0,0,0,1]}}'));
    expect(await closed).toEqual([1007, 'head.position[0] must be a finite number within ±1e6']);
  });

  it('gives agent sockets on both hosts ids from one count and marks the service’s oldest as executor on both', async () => {
    const r = room('agent');
    const sockets: AgentClient[] = [];
    for (const host of [hosts[1]!, hosts[0]!, hosts[1]!]) sockets.push(await connectAgent(host.url, r, `?name=s${sockets.length}`));
    expect(sockets.map((s) => s.clientId)).toEqual([0, 1, 2]);
    const marked = async (host: RunningHost) =>
      (await getJson<{ peers: Peer[] }>(host, `/api/rooms/${r}/presence`)).peers.map((p) => `${p.name}:${p.client_id}${p.executor ? '*' : ''}`);
    for (const host of hosts) expect(await marked(host)).toEqual(['s0:0*', 's1:1', 's2:2']);
    // The oldest leaves: the next oldest of the service, on the other host, is the executor for both.
    await sockets[0]!.close();
    await waitFor(async () => ((await marked(hosts[0]!)).length === 2 ? true : undefined), 's0’s leave');
    for (const host of hosts) expect(await marked(host)).toEqual(['s1:1*', 's2:2']);
    for (const socket of sockets.slice(1)) await socket.close();
  });

  it('takes out a killed host’s followers within 5 s', async () => {
    const r = room('presence');
    const doomed = await service.host();
    const stays = await openStream(`${hosts[0]!.url}/api/rooms/${r}/events?name=stays`);
    streams.push(stays);
    const gone = await openStream(`${doomed.url}/api/rooms/${r}/events?name=gone`);
    streams.push(gone);
    await stays.next((e) => e.event === 'presence' && (e.data as { peer: Peer }).peer.name === 'gone');
    await doomed.stop('SIGKILL');
    const killed = Date.now();
    await stays.next((e) => e.event === 'presence' && (e.data as { op: string }).op === 'leave');
    expect(Date.now() - killed).toBeLessThan(5000);
    expect(await roster(hosts[1]!, r)).toEqual(['stays']);
  });
});
