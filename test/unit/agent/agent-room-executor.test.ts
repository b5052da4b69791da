/**
 * @module agent-room-executor.test
 * Who runs a room's headset calls, in memory on a fake clock: the room's oldest socket (the
 * smallest client id, whatever order they joined in), every socket hearing the call; with none,
 * the call fails at once; when the executor leaves, the next oldest takes over, and two hundred
 * executors leaving at seeded random moments of their calls each see their call fail within the
 * second (here at once: no clock moves).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { keptMember, memoryAgentRooms } from '../../helpers/agent-parts.ts';
import { seededRandom } from '../../helpers/seeded-random.ts';

beforeEach(() => void vi.useFakeTimers());
afterEach(() => void vi.useRealTimers());

describe('the executor of a room’s headset calls', () => {
  it('is the oldest socket; every socket hears the call and only its result counts', async () => {
    const rooms = memoryAgentRooms(null);
    const [late, oldest, middle] = [keptMember(7), keptMember(2), keptMember(4)];
    for (const member of [late, oldest, middle]) await rooms.join('lab', member);
    expect(rooms.executorOf('lab')).toEqual({ clientId: 2, peerId: 'peer-2' });
    const answer = rooms.call('lab', 'set_room_scene', { name: 'black' });
    await vi.advanceTimersByTimeAsync(0);
    const calls = [late, oldest, middle].map((m) => m.frames.find((f) => f.type === 'tool_call'));
    expect(calls[0]).toMatchObject({ name: 'set_room_scene', args: { name: 'black' }, executor: 2 });
    expect(calls[1]).toEqual(calls[0]);
    expect(calls[2]).toEqual(calls[0]);
    const room = rooms.held('lab')!;
    const requestId = calls[0]!.request_id as string;
    room.frame(middle, { type: 'tool_result', request_id: requestId, result: { ok: false } });
    expect(middle.frames.at(-1)).toEqual({ type: 'error', message: `request_id '${requestId}' was sent to client 2: only its tool_result counts` });
    room.frame(oldest, { type: 'tool_result', request_id: requestId, result: { ok: true } });
    await expect(answer).resolves.toEqual({ ok: true });
    rooms.leave('lab', 2);
    expect(rooms.executorOf('lab')).toEqual({ clientId: 4, peerId: 'peer-4' });
    rooms.close();
  });

  it('fails a call at once when the room has no socket', async () => {
    const rooms = memoryAgentRooms(null);
    await expect(rooms.call('empty', 'remove_specimen', { index: 0 })).rejects.toThrow("no headset is connected to the agent socket of room 'empty'");
    await rooms.join('lab', keptMember(0));
    rooms.leave('lab', 0);
    // The room was let go once empty.
    expect(rooms.held('lab')).toBeNull();
    await expect(rooms.call('lab', 'remove_specimen', { index: 0 })).rejects.toThrow("no headset is connected to the agent socket of room 'lab'");
  });

  it('ends at once every call of two hundred executors leaving at random moments', async () => {
    const rooms = memoryAgentRooms(null);
    const random = seededRandom(70);
    let disconnected = 0;
    let next = 0;
    // Ten rooms, twenty departures each; each executor leaves after a seeded number of event-loop
    // turns into its call (before the call reaches it, or after).
    const lane = async (r: string) => {
      for (let i = 0; i < 20; i++) {
        const executor = keptMember(next++);
        await rooms.join(r, executor);
        const answer = rooms.call(r, 'remove_specimen', { index: 0 }).then(
          () => 'answered',
          (error: Error) => error.message,
        );
        for (let turns = Math.floor(random() * 20); turns > 0; turns--) await Promise.resolve();
        rooms.leave(r, executor.clientId);
        const said = await answer;
        // Gone before its rights to write were read, the room has no headset left to run the call;
        // gone after, its call ends as its executor's. Either way the call ends at once.
        expect([
          `executing client ${executor.clientId} disconnected before replying to remove_specimen`,
          `no headset is connected to the agent socket of room '${r}' to run the call`,
        ]).toContain(said);
        disconnected++;
      }
    };
    await Promise.all(Array.from({ length: 10 }, (_, k) => lane(`room-${k}`)));
    expect(disconnected).toBe(200);
    expect(vi.getTimerCount()).toBe(0);
    rooms.close();
  });
});
