/**
 * @module logged-marks.test
 * A large batch of marks reaches the room's log as several `add` entries of at most
 * LOGGED_MARKS marks, each with the room version its last mark made, so that no entry holds a
 * whole room; folded, they make the same marks as the batch.
 */
import { describe, expect, it } from 'vitest';
import { MemoryAnnotationStore } from '../../core/annotations/memory-annotation-store.ts';
import { EventHub } from '../../core/events/event-hub.ts';
import { loggedAnnotations, LOGGED_MARKS } from '../../core/history/logged-stores.ts';
import { MemoryRoomLog } from '../../core/history/memory-room-log.ts';
import { foldAll } from '../../core/history/room-fold.ts';
import { RoomRecorder } from '../../core/history/room-recorder.ts';
import type { AnnotationInput } from '../../core/wire/scene-types.ts';
import { room } from '../helpers/room.ts';

describe('marks in the room log', () => {
  it('logs a large batch as entries of at most LOGGED_MARKS marks that fold into the batch', async () => {
    const log = new MemoryRoomLog(3600);
    const store = loggedAnnotations(new MemoryAnnotationStore(new EventHub(), { maxPerRoom: 10_000, maxPerHost: 10_000 }), new RoomRecorder(log, () => {}));
    const r = room('log');
    const marks = (n: number): AnnotationInput[] => Array.from({ length: n }, (_, i) => ({ kind: 'point', points: [[i, 0, 0]] }));
    await store.add(r, marks(3));
    const added = await store.add(r, marks(2 * LOGGED_MARKS + 5));
    const { entries } = await log.read(r, 0, 100);
    expect(entries.map((e) => [(e.annotations as unknown[]).length, e.version])).toEqual([
      [3, 3],
      [LOGGED_MARKS, 3 + LOGGED_MARKS],
      [LOGGED_MARKS, 3 + 2 * LOGGED_MARKS],
      [5, added.version],
    ]);
    const folded = foldAll(entries);
    expect([...folded.annotations!.values()]).toEqual((await store.list(r)).annotations);
  });
});
