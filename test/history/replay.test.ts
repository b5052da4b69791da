/**
 * @module replay.test
 * Another room's log played into a room, over real HTTP on one host: a follower of the
 * replayed room sees each change as an ordinary event at its original offset (within 50 ms at
 * speed 1, and at half the offsets at speed 2); `at` sets the room to the other room's state
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

/** Plays `from` into a new room at `speed` and answers each replayed change's offset from the first, as a follower saw it. */
async function playedOffsets(from: string, speed: number): Promise<number[]> {
  const into = room('replay');
  const follower = await openStream(`${server.url}/api/rooms/${into}/events`);
  await follower.next((e) => e.event === 'scene');
  const seen: number[] = [];
  const arrivals = new Map<number, number>();
  const started = await send('POST', `/api/rooms/${into}/replay`, { from, speed });
  expect(started.status).toBe(202);
  expect(await started.json()).toMatchObject({ room_id: into, from, state: 'playing', total: GAPS.length, speed });
  for (let i = 1; i <= GAPS.length; i++) {
    const opacity = i / 10;
    await follower.next((e) => e.event === 'view' && (e.data as { opacity?: number }).opacity === opacity);
    arrivals.set(i, performance.now());
  }
  follower.close();
  for (let i = 1; i <= GAPS.length; i++) seen.push(arrivals.get(i)! - arrivals.get(1)!);
  return seen;
}

describe('replay', () => {
  it('plays each change at its original offset, at speed 1 and 2', async () => {
    const { from, entries } = await recordSession();
    const original = entries.map((e) => e.ts - entries[0]!.ts);
    const atOne = await playedOffsets(from, 1);
    atOne.forEach((offset, i) => expect(Math.abs(offset - original[i]!)).toBeLessThanOrEqual(50));
    const atTwo = await playedOffsets(from, 2);
    atTwo.forEach((offset, i) => expect(Math.abs(offset - original[i]! / 2)).toBeLessThanOrEqual(50));
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
    ];
    for (const body of bodies) {
      const answer = await send('POST', `/api/rooms/${into}/replay`, body);
      expect(answer.status).toBe(400);
      expect(await answer.json()).toMatchObject({ code: 'SPC_ERR_REPLAY_INVALID' });
    }
    const empty = await send('POST', `/api/rooms/${into}/replay`, { from: room('nothing') });
    expect(empty.status).toBe(404);
    expect(await empty.json()).toMatchObject({ code: 'SPC_ERR_REPLAY_EMPTY' });
  });
});
