/**
 * @module replay.test
 * Another room's log played into a room, over real HTTP on one host: a follower of the
 * replayed room sees each change as an ordinary event, in order, at speed 1 and 2 (how close
 * to its original offset each lands is measured by the presence benchmark); `at` sets the room to the other room's state
 * at a moment; a replay pauses, seeks, reports where it is (and tells the room's followers each
 * change of pace as a `replay` event) and stops; bad asks are 400s
 * naming the field, an empty range a 404.
 */
import { describe, expect, it } from 'vitest';
import type { LogEntry } from '../../core/history/room-log-store.ts';
import { fileTestApp } from '../helpers/create-test-app.ts';
import { room } from '../helpers/room.ts';
import { openStream } from '../helpers/sse-reader.ts';
import { waitFor } from '../helpers/wait-for.ts';

const server = fileTestApp();
const JSON_TYPE = { 'content-type': 'application/json' };
const send = (method: string, path: string, body?: unknown) =>
  fetch(`${server.url}${path}`, { method, headers: JSON_TYPE, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
const log = async (r: string) => ((await (await fetch(`${server.url}/api/rooms/${r}/log`)).json()) as { entries: LogEntry[] }).entries;

/** Gaps (ms) between the recorded session's view changes. */
const GAPS = [0, 150, 60, 300, 120];

/** Records a session in a new room: one view change per gap, `opacity` 0.1, 0.2, …; answers the room and its entries. */
async function recordSession(): Promise<{ from: string; entries: LogEntry[] }> {
  const from = room('session');
  let at = Date.now();
  for (const [i, gap] of GAPS.entries()) {
    at += gap;
    // The session's own pace: each change waits for its moment (the clock, polled), as a presenter would.
    await waitFor(() => (Date.now() >= at ? true : undefined), 'the next moment of the session', 5000, 1);
    expect((await send('PUT', `/api/rooms/${from}/view`, { opacity: (i + 1) / 10 })).status).toBe(200);
  }
  return { from, entries: await log(from) };
}

/**
 * Plays `from` into a new room at `speed`; answers each replayed change's offset from the first,
 * by the host's clock when the replayed room changed (its own log's `ts`), once a follower of
 * the room has seen every change, in order, as an ordinary `view` event.
 */
async function playedOffsets(from: string, speed: number): Promise<number[]> {
  const into = room('replay');
  const follower = await openStream(`${server.url}/api/rooms/${into}/events`);
  await follower.next((e) => e.event === 'scene');
  const started = await send('POST', `/api/rooms/${into}/replay`, { from, speed });
  expect(started.status).toBe(202);
  expect(await started.json()).toMatchObject({ room_id: into, from, state: 'playing', total: GAPS.length, speed });
  let seen = 0;
  for (let i = 1; i <= GAPS.length; i++) {
    const opacity = i / 10;
    const event = await follower.next((e) => e.event === 'view' && (e.data as { opacity?: number }).opacity === opacity, seen);
    seen = follower.events.indexOf(event) + 1;
  }
  follower.close();
  const played = (await log(into)).filter((e) => e.type === 'view' && (e.view as { opacity?: number }).opacity !== undefined);
  expect(played.map((e) => (e.view as { opacity: number }).opacity)).toEqual(GAPS.map((_, i) => (i + 1) / 10));
  return played.map((e) => e.ts - played[0]!.ts);
}

describe('replay', () => {
  it('plays each change in order as an ordinary event, at speed 1 and 2', async () => {
    const { from } = await recordSession();
    // How close to its original offset each change lands is measured by `npm run bench presence` (part 6).
    for (const speed of [1, 2]) {
      const played = await playedOffsets(from, speed);
      for (let i = 1; i < played.length; i++) expect(played[i]!).toBeGreaterThanOrEqual(played[i - 1]!);
    }
  });

  it('sets a room to the state another room had at a moment, and records it by the replay', async () => {
    const { from, entries } = await recordSession();
    const into = room('jump');
    const answer = await send('POST', `/api/rooms/${into}/replay`, { from, at: entries[2]!.ts });
    expect(answer.status).toBe(200);
    expect(await answer.json()).toMatchObject({ room_id: into, from, seq: 3 });
    expect(await (await fetch(`${server.url}/api/rooms/${into}/view`)).json()).toEqual({ opacity: 0.3 });
    const own = await log(into);
    expect(own[0]).toMatchObject({ type: 'replay', from, at: entries[2]!.ts });
    expect(own.at(-1)).toMatchObject({ type: 'view', view: { opacity: 0.3 } });
  });

  it('writes nothing of what the room already shows: a static specimen shown again is not a second change', async () => {
    const from = room('static');
    expect((await send('POST', `/api/rooms/${from}/layers`, { id: 'tri', source: { specimen: 'tri' } })).status).toBe(201);
    await waitFor(async () => ((await log(from)).some((e) => e.type === 'entry') ? true : undefined), "the layer's result shown as the entry");
    const into = room('static-into');
    const at = (await log(from)).at(-1)!.ts;
    expect((await send('POST', `/api/rooms/${into}/replay`, { from, at })).status).toBe(200);
    await waitFor(async () => ((await log(into)).some((e) => e.type === 'entry') ? true : undefined), 'the replayed room showing the triangle');
    const before = (await log(into)).length;
    // The same moment again: the room holds every part of it already (a replay's result arriving
    // after the room computed its own is the same case), so only the replay itself is recorded.
    expect((await send('POST', `/api/rooms/${into}/replay`, { from, at })).status).toBe(200);
    expect((await log(into)).slice(before).map((e) => e.type)).toEqual(['replay']);
  });

  it('pauses, seeks, says where it is and stops', async () => {
    const { from, entries } = await recordSession();
    const into = room('steer');
    const follower = await openStream(`${server.url}/api/rooms/${into}/events`);
    await follower.next((e) => e.event === 'scene');
    const told = (state: string) => follower.next((e) => e.event === 'replay' && (e.data as { state: string }).state === state);
    expect((await send('POST', `/api/rooms/${into}/replay`, { from, speed: 0.5 })).status).toBe(202);
    expect((await told('playing')).data).toMatchObject({ from, speed: 0.5, total: GAPS.length });
    const paused = await (await send('POST', `/api/rooms/${into}/replay`, { pause: true })).json();
    expect(paused).toMatchObject({ state: 'paused', speed: 0.5 });
    expect((await told('paused')).data).toMatchObject(paused as object);
    const sought = await (await send('POST', `/api/rooms/${into}/replay`, { seek: entries[3]!.ts })).json();
    expect(sought).toMatchObject({ state: 'paused', position: entries[3]!.ts, applied: 4 });
    expect(await (await fetch(`${server.url}/api/rooms/${into}/view`)).json()).toEqual({ opacity: 0.4 });
    expect(await (await send('POST', `/api/rooms/${into}/replay`, { pause: false, speed: 4 })).json()).toMatchObject({ state: 'playing', speed: 4 });
    const state = async () => ((await (await fetch(`${server.url}/api/rooms/${into}/replay`)).json()) as { state: string }).state;
    await waitFor(async () => ((await state()) === 'ended' ? true : undefined), 'the end');
    expect(await (await fetch(`${server.url}/api/rooms/${into}/view`)).json()).toEqual({ opacity: 0.5 });
    expect((await told('ended')).data).toMatchObject({ applied: GAPS.length });
    follower.close();
    expect((await send('DELETE', `/api/rooms/${into}/replay`)).status).toBe(204);
    expect((await fetch(`${server.url}/api/rooms/${into}/replay`)).status).toBe(404);
    expect((await send('POST', `/api/rooms/${into}/replay`, { pause: true })).status).toBe(404);
  });

  it('refuses bad asks with the field named, and an empty range with a 404', async () => {
    const into = room('bad');
    const bodies = [
      { from: 'x', speed: 5 },
      { from: 'x', speed: 0.1 },
      {},
      { from: into },
      { from: 'x', since: -1 },
      { from: 'x', since: 3, until: 2 },
      { frm: 'x' },
      // A moment no log has reached (past any clock, or a day ahead) is out of range, as is a seek there.
      { from: 'x', at: 1e20 },
      { from: 'x', at: Date.now() + 86_400_000 },
      { seek: 1e20 },
    ];
    for (const body of bodies) {
      const answer = await send('POST', `/api/rooms/${into}/replay`, body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(await answer.json()).toMatchObject({ code: 'SPC_ERR_REPLAY_INVALID' });
    }
    const empty = await send('POST', `/api/rooms/${into}/replay`, { from: room('nothing') });
    expect(empty.status).toBe(404);
    expect(await empty.json()).toMatchObject({ code: 'SPC_ERR_REPLAY_EMPTY' });
  });
});
