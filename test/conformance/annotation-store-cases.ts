/**
 * @module annotation-store-cases
 * The AnnotationStore contract, written once (annotation-store.test.ts runs it on the memory,
 * disk and Redis stores): ids made by the host and never made twice, the room's version moved by
 * one per annotation changed, each annotation's own version, `If-Match` refusing a stale
 * version and changing nothing, a change without it applied on top of whatever came first,
 * the limit per room refusing a whole request, the events in version order (a large batch
 * sending only its last), a replaced list, and every write in the room's log with the version
 * it made (a large batch in entries of at most LOGGED_MARKS marks that fold into the room) and
 * nothing of a refused one. A harness hands the store, the hub its events reach and the log.
 */
import { describe, expect, it } from 'vitest';
import type { Annotation, AnnotationEvent, AnnotationInput } from '../../core/wire/scene-types.ts';
import { DEFAULT_MAX_ANNOTATIONS, EVENT_BATCH_LIMIT, EVENT_BATCH_POINTS, type AnnotationStore } from '../../core/annotations/annotation-store.ts';
import { roomChannel } from '../../core/events/channels.ts';
import type { EventHub } from '../../core/events/event-hub.ts';
import { HostError } from '../../core/errors.ts';
import { LOGGED_MARKS } from '../../core/history/room-changes.ts';
import { foldAll } from '../../core/history/room-fold.ts';
import { asActor } from '../../core/history/request-actor.ts';
import type { RoomLogStore } from '../../core/history/room-log-store.ts';
import { entriesOf } from '../helpers/home-logs.ts';
import { room } from '../helpers/room.ts';
import { waitFor } from '../helpers/wait-for.ts';

export interface AnnotationHarness {
  /** A store whose rooms hold at most `maxPerRoom` annotations. */
  store(maxPerRoom: number): AnnotationStore;
  /** The hub the store's events reach (on a Redis service, through its subscription). */
  hub: EventHub;
  /** The rooms' log the store appends to. */
  log: RoomLogStore;
}

const point = (x: number, label?: string): AnnotationInput => ({ kind: 'point', points: [[x, 0, 0]], ...(label ? { label } : {}) });

/** Collects the `annotation` events of a room until stopped. */
function collect(hub: EventHub, roomId: string): { events: AnnotationEvent[]; stop: () => void } {
  const events: AnnotationEvent[] = [];
  const stop = hub.subscribe(roomChannel(roomId), (e) => {
    if (e.event === 'annotation') events.push(e.data as AnnotationEvent);
  });
  return { events, stop };
}

async function refused(work: Promise<unknown>): Promise<HostError> {
  const error = await work.then(() => null, (e: unknown) => e);
  expect(error).toBeInstanceOf(HostError);
  return error as HostError;
}

export function annotationStoreCases(label: string, harness: () => AnnotationHarness): void {
  describe(`${label} annotation store`, () => {
    it('adds with ids it makes, versions 1, one room version per annotation, and measurements', async () => {
      const store = harness().store(DEFAULT_MAX_ANNOTATIONS);
      const r = room('ann');
      expect(await store.list(r)).toEqual({ version: 0, annotations: [] });
      const first = await store.add(r, [{ kind: 'line', points: [[0, 0, 0], [3, 4, 0]], label: 'crack', color: '#ff8800' }]);
      expect(first.version).toBe(1);
      const [line] = first.annotations;
      expect(line).toMatchObject({ id: '1', kind: 'line', label: 'crack', color: '#ff8800', version: 1, length: 5 });
      expect(line!.created).toBe(line!.updated);
      const more = await store.add(r, [point(1), { kind: 'box', points: [[0, 0, 0], [2, -3, 4]] }, { kind: 'ellipsoid', points: [[0, 0, 0], [1, 2, 3]] }]);
      expect(more.version).toBe(4);
      expect(more.annotations.map((a) => a.id)).toEqual(['2', '3', '4']);
      expect(more.annotations[1]!.volume).toBe(24);
      expect(more.annotations[2]!.volume).toBeCloseTo(8 * Math.PI, 12);
      const list = await store.list(r);
      expect(list.version).toBe(4);
      expect(list.annotations).toEqual([line, ...more.annotations]);
      expect(await store.version(r)).toBe(4);
      expect(await store.get(r, '3')).toEqual(more.annotations[1]);
      expect(await store.get(r, '99')).toBeNull();
    });

    it('never makes an id twice, also after a removal, and keeps rooms apart', async () => {
      const store = harness().store(DEFAULT_MAX_ANNOTATIONS);
      const [a, b] = [room('ann'), room('ann')];
      await store.add(a, [point(1), point(2)]);
      await store.remove(a, '2');
      const again = await store.add(a, [point(3)]);
      expect(again.annotations[0]!.id).toBe('3');
      expect((await store.add(b, [point(9)])).annotations[0]!.id).toBe('1');
      expect((await store.list(a)).annotations.map((x) => x.id)).toEqual(['1', '3']);
      expect((await store.list(a)).version).toBe(4);
    });

    it('changes at the expected version, refuses a stale one with 412 and changes nothing', async () => {
      const store = harness().store(DEFAULT_MAX_ANNOTATIONS);
      const r = room('ann');
      await store.add(r, [point(1, 'seed')]);
      const changed = await store.change(r, '1', { points: [[1, 2, 2]], label: null, color: '#00ff00' }, 1);
      expect(changed).toMatchObject({ op: 'change', version: 2, annotation: { id: '1', version: 2, points: [[1, 2, 2]], color: '#00ff00' } });
      expect(changed.annotation.label).toBeUndefined();
      expect(changed.annotation.updated).toBeGreaterThanOrEqual(changed.annotation.created);
      const stale = await refused(store.change(r, '1', { label: 'late' }, 1));
      expect(stale.statusCode).toBe(412);
      expect(stale.message).toBe("annotation '1' is at version 2, not 1: someone changed it first; read it again");
      expect(await store.get(r, '1')).toEqual(changed.annotation);
      expect(await store.version(r)).toBe(2);
      expect((await refused(store.remove(r, '1', 1))).statusCode).toBe(412);
      expect((await store.list(r)).annotations).toHaveLength(1);
    });

    it('applies a change without a version on top of changes made first, and re-measures', async () => {
      const store = harness().store(DEFAULT_MAX_ANNOTATIONS);
      const r = room('ann');
      await store.add(r, [{ kind: 'line', points: [[0, 0, 0], [1, 0, 0]] }]);
      await Promise.all([store.change(r, '1', { label: 'a' }), store.change(r, '1', { color: '#123456' }), store.change(r, '1', { properties: { n: 1 } })]);
      const now = (await store.get(r, '1'))!;
      expect(now).toMatchObject({ label: 'a', color: '#123456', properties: { n: 1 }, version: 4 });
      const polyline = await store.change(r, '1', { kind: 'polyline', points: [[0, 0, 0], [0, 3, 0], [4, 3, 0]] });
      expect(polyline.annotation).toMatchObject({ kind: 'polyline', length: 7, label: 'a' });
      const bad = await refused(store.change(r, '1', { kind: 'point' }));
      expect(bad.statusCode).toBe(400);
      expect(bad.message).toBe('points must hold one point for a point, got 3');
      expect((await store.get(r, '1'))!.version).toBe(5);
    });

    it('answers 404 for an annotation it does not hold, in a room it knows or not', async () => {
      const store = harness().store(DEFAULT_MAX_ANNOTATIONS);
      const r = room('ann');
      await store.add(r, [point(1)]);
      for (const work of [
        store.change(r, '7', { label: 'x' }),
        store.remove(r, '7'),
        store.remove(room('ann'), '1'),
        store.change(r, '7', { label: 'x' }, 1),
      ]) {
        const error = await refused(work);
        expect(error.statusCode).toBe(404);
      }
    });

    it('refuses a request past the room limit whole, and takes what fits', async () => {
      const limited = harness().store(5);
      const r = room('ann');
      await limited.add(r, [point(1), point(2), point(3)]);
      const full = await refused(limited.add(r, [point(4), point(5), point(6)]));
      expect(full.statusCode).toBe(409);
      expect(full.message).toContain('more than its limit of 5 annotations');
      expect((await limited.list(r)).annotations).toHaveLength(3);
      await limited.add(r, [point(4), point(5)]);
      expect((await refused(limited.add(r, [point(6)]))).statusCode).toBe(409);
      await limited.remove(r, (await limited.list(r)).annotations[0]!.id);
      await limited.add(r, [point(6)]);
      expect((await limited.list(r)).annotations).toHaveLength(5);
    });

    it('holds 100,000 annotations in a room and refuses the 100,001st', async () => {
      const store = harness().store(DEFAULT_MAX_ANNOTATIONS);
      const r = room('ann');
      for (let k = 0; k < 10; k++) await store.add(r, Array.from({ length: 10_000 }, (_, i) => point(k * 10_000 + i)));
      const error = await refused(store.add(r, [point(-1)]));
      expect(error.statusCode).toBe(409);
      expect(error.message).toBe(`room '${r}' would hold more than its limit of 100000 annotations with these 1 more (it holds 100000); remove some first`);
      const list = await store.list(r);
      expect(list.version).toBe(100_000);
      expect(list.annotations).toHaveLength(100_000);
      expect(list.annotations.at(-1)!.id).toBe('100000');
      // A change in the full room is as cheap as in an empty one: it touches one annotation.
      expect((await store.change(r, '50000', { label: 'middle' })).version).toBe(100_001);
    }, 120_000);

    it('sends each change as an event in version order, and only the last of a large batch', async () => {
      const h = harness();
      const store = h.store(DEFAULT_MAX_ANNOTATIONS);
      const r = room('ann');
      const seen = collect(h.hub, r);
      try {
        await store.add(r, [point(1), point(2)]);
        await store.change(r, '1', { label: 'x' });
        await store.remove(r, '2');
        await waitFor(() => (seen.events.length >= 4 ? true : undefined), 'four annotation events');
        expect(seen.events.map((e) => [e.op, e.annotation.id, e.version])).toEqual([['add', '1', 1], ['add', '2', 2], ['change', '1', 3], ['remove', '2', 4]]);
        expect(seen.events[2]!.annotation).toEqual(await store.get(r, '1'));
        const batch = await store.add(r, Array.from({ length: EVENT_BATCH_LIMIT + 1 }, (_, i) => point(i)));
        await waitFor(() => (seen.events.length >= 5 ? true : undefined), 'the batch event');
        expect(seen.events.slice(4).map((e) => [e.op, e.annotation.id, e.version])).toEqual([['add', batch.annotations.at(-1)!.id, batch.version]]);
        expect(batch.version).toBe(4 + EVENT_BATCH_LIMIT + 1);
      } finally {
        seen.stop();
      }
    });

    it('sends only the last event of a few marks that hold too many points to send each', async () => {
      const h = harness();
      const store = h.store(DEFAULT_MAX_ANNOTATIONS);
      const r = room('ann');
      const seen = collect(h.hub, r);
      const vertex = (i: number): [number, number, number] => [i, i % 7, 0];
      const polyline = (n: number): AnnotationInput => ({ kind: 'polyline', points: Array.from({ length: n }, (_, i) => vertex(i)) });
      try {
        // Three polylines just past the bound together: one event, the last, at the batch's version.
        const third = Math.floor(EVENT_BATCH_POINTS / 3) + 1;
        const heavy = await store.add(r, [polyline(third), polyline(third), polyline(third)]);
        await waitFor(() => (seen.events.length >= 1 ? true : undefined), 'the heavy batch event');
        // Two within it: each sent.
        const light = await store.add(r, [polyline(10), polyline(10)]);
        await waitFor(() => (seen.events.length >= 3 ? true : undefined), 'the light batch events');
        expect(seen.events.map((e) => [e.op, e.annotation.id, e.version])).toEqual([
          ['add', heavy.annotations[2]!.id, 3],
          ['add', light.annotations[0]!.id, 4],
          ['add', light.annotations[1]!.id, 5],
        ]);
        expect(seen.events[0]!.annotation.points).toHaveLength(third);
      } finally {
        seen.stop();
      }
    });

    it('logs each write with the room version it made, by whoever made it, and nothing of a refused one', async () => {
      const h = harness();
      const store = h.store(5);
      const r = room('ann');
      await asActor('ada', () => store.add(r, [point(1), point(2)]));
      await store.change(r, '1', { label: 'x' });
      await refused(store.change(r, '1', { label: 'late' }, 1));
      await refused(store.add(r, [point(3), point(4), point(5), point(6)]));
      await store.remove(r, '2');
      await refused(store.remove(r, '2'));
      const marks = (await store.list(r)).annotations;
      await store.replace(r, marks);
      const entries = await entriesOf(h.log, r);
      expect(entries.map((e) => [e.seq, e.by, e.type, e.op, e.version])).toEqual([
        [1, 'ada', 'annotation', 'add', 2],
        [2, 'host', 'annotation', 'change', 3],
        [3, 'host', 'annotation', 'remove', 4],
        [4, 'host', 'annotation', 'replace', 6],
      ]);
      expect(entries[1]!.annotation).toMatchObject({ id: '1', label: 'x', version: 2 });
      expect(entries[3]!.annotations).toEqual(marks);
    });

    it('logs a large batch as entries of at most LOGGED_MARKS marks that fold into the room', async () => {
      const h = harness();
      const store = h.store(DEFAULT_MAX_ANNOTATIONS);
      const r = room('ann');
      await store.add(r, [point(-1), point(-2), point(-3)]);
      const added = await store.add(r, Array.from({ length: 2 * LOGGED_MARKS + 5 }, (_, i) => point(i)));
      const entries = await entriesOf(h.log, r);
      expect(entries.map((e) => [(e.annotations as unknown[]).length, e.version])).toEqual([
        [3, 3],
        [LOGGED_MARKS, 3 + LOGGED_MARKS],
        [LOGGED_MARKS, 3 + 2 * LOGGED_MARKS],
        [5, added.version],
      ]);
      expect([...foldAll(entries).annotations!.values()]).toEqual((await store.list(r)).annotations);
    });

    it('replaces a room’s list, keeping ids, versions and times, and makes later ids past them', async () => {
      const store = harness().store(DEFAULT_MAX_ANNOTATIONS);
      const [from, to] = [room('ann'), room('ann')];
      const kept = (await store.add(from, [point(1, 'a'), point(2, 'b'), { kind: 'line', points: [[0, 0, 0], [0, 0, 2]] }])).annotations;
      await store.change(from, '2', { label: 'bb' });
      const snapshot: Annotation[] = (await store.list(from)).annotations;
      await store.add(to, [point(7)]);
      expect(await store.replace(to, snapshot)).toBe(1 + 1 + 3);
      expect(await store.list(to)).toEqual({ version: 5, annotations: snapshot });
      expect((await store.add(to, [point(8)])).annotations[0]!.id).toBe('4');
      expect(kept).toHaveLength(3);
    });
  });
}
