/**
 * @module room-board-cases
 * The RoomBoard conformance cases: what every room board (a lone host's memory, a Redis
 * service) must do alike. A room's view is stored whole, merged as the workspace merges a
 * change (a null removes a setting) and removed when set empty; a shown static specimen is
 * kept, replaced, cleared (saying whether there was one) and lets go after its time-to-live;
 * each view set and each specimen shown is in the room's log, by whoever made it, in order;
 * an announcement reaches the room's channel on another host's hub (on Redis through its
 * pub/sub), and that room's only. Each implementation's test file supplies a harness.
 */
import { describe, expect, it } from 'vitest';
import { ROOM_RESYNC, roomChannel } from '../../core/events/channels.ts';
import type { EventHub, HostEvent } from '../../core/events/event-hub.ts';
import { asActor } from '../../core/history/request-actor.ts';
import type { RoomLogStore } from '../../core/history/room-log-store.ts';
import type { RoomBoard, ShownSpecimen } from '../../core/rooms/room-board.ts';
import { applyViewChange, type RoomView } from '../../core/rooms/room-view.ts';
import { entriesOf } from '../helpers/home-logs.ts';
import { room } from '../helpers/room.ts';
import { waitFor } from '../helpers/wait-for.ts';

export interface RoomBoardHarness {
  /** A board whose shown specimens live `shownTtlSeconds`. */
  board(shownTtlSeconds: number): RoomBoard;
  /** The hub of another host of the same service (a lone host's own): where room streams listen. */
  elsewhere: EventHub;
  /** The rooms' log the boards append to. */
  log: RoomLogStore;
}

/** A long time-to-live: nothing a case sets goes while it runs. */
const LONG_TTL_SECONDS = 3600;

const FULL_VIEW: RoomView = {
  window: [-100, 250.5],
  colormap: 'viridis',
  opacity: 0.75,
  mode: 'volume',
  camera: { position: [0, 0, 5], target: [0, 0, 0], up: [0, 1, 0] },
};

/**
 * Collects the events of `roomId`'s channel on `hub`: the board's, not the resyncs a hub sends
 * its room streams when its own subscription comes back (which a busy machine may cause).
 */
function listen(hub: EventHub, roomId: string): { events: HostEvent[]; off: () => void } {
  const events: HostEvent[] = [];
  return { events, off: hub.subscribe(roomChannel(roomId), (event) => void (event.event !== ROOM_RESYNC && events.push(event))) };
}

export function roomBoardConformance(label: string, make: () => RoomBoardHarness): void {
  describe(`${label} room board`, () => {
    it('has no view for a room never set, and stores a view whole', async () => {
      const board = make().board(LONG_TTL_SECONDS);
      const id = room('board-view');
      expect(await board.view(id)).toEqual({});
      await board.setView(id, FULL_VIEW);
      expect(await board.view(id)).toEqual(FULL_VIEW);
      expect(await board.view(room('board-other'))).toEqual({});
    });

    it('keeps a change merged into the view as the workspace merges it, a null removing a setting', async () => {
      const board = make().board(LONG_TTL_SECONDS);
      const id = room('board-merge');
      await board.setView(id, { window: [0, 1], colormap: 'grey' });
      await board.setView(id, applyViewChange(await board.view(id), { colormap: 'bone', opacity: 0.5, window: null }));
      expect(await board.view(id)).toEqual({ colormap: 'bone', opacity: 0.5 });
    });

    it('removes the view when it is set empty, leaving other rooms as they are', async () => {
      const board = make().board(LONG_TTL_SECONDS);
      const [id, other] = [room('board-remove'), room('board-keep')];
      await board.setView(id, FULL_VIEW);
      await board.setView(other, { opacity: 0.25 });
      await board.setView(id, applyViewChange(await board.view(id), { window: null, colormap: null, opacity: null, mode: null, camera: null }));
      expect(await board.view(id)).toEqual({});
      expect(await board.view(other)).toEqual({ opacity: 0.25 });
    });

    it('shows a static specimen until it is replaced or cleared; clearing says whether there was one', async () => {
      const board = make().board(LONG_TTL_SECONDS);
      const id = room('board-shown');
      const first: ShownSpecimen = { specimen_id: 'ct-phantom', type: 'volume', since: 1_700_000_000_000 };
      const second: ShownSpecimen = { specimen_id: 'bunny', type: 'mesh', since: 1_700_000_000_500 };
      expect(await board.shown(id)).toBeNull();
      expect(await board.clearShown(id)).toBe(false);
      await board.setShown(id, first);
      expect(await board.shown(id)).toEqual(first);
      await board.setShown(id, second);
      expect(await board.shown(id)).toEqual(second);
      expect(await board.clearShown(id)).toBe(true);
      expect(await board.shown(id)).toBeNull();
      expect(await board.clearShown(id)).toBe(false);
    });

    it('logs each view set and each specimen shown, by whoever made it, in the order they were made', async () => {
      const harness = make();
      const board = harness.board(LONG_TTL_SECONDS);
      const id = room('board-log');
      await asActor('ada', () => board.setView(id, { opacity: 0.5 }));
      await board.setShown(id, { specimen_id: 'bunny', type: 'mesh', since: 1 });
      await asActor('bo', () => board.setView(id, {}));
      const entries = await entriesOf(harness.log, id);
      expect(entries.map(({ seq, by, type, view, entry }) => ({ seq, by, type, ...(view ? { view } : { entry }) }))).toEqual([
        { seq: 1, by: 'ada', type: 'view', view: { opacity: 0.5 } },
        { seq: 2, by: 'host', type: 'entry', entry: { function_name: null, specimen_id: 'bunny', params: {}, type: 'mesh' } },
        { seq: 3, by: 'bo', type: 'view', view: {} },
      ]);
    });

    it('lets a shown specimen go once its time-to-live has passed', async () => {
      const board = make().board(0.05);
      const id = room('board-expire');
      await board.setShown(id, { specimen_id: 'galaxy', type: 'point_cloud', since: Date.now() });
      await waitFor(async () => ((await board.shown(id)) === null ? true : undefined), 'the shown specimen to expire');
      expect(await board.clearShown(id)).toBe(false);
    });

    it("announces an event on the room's channel of another host, and to that room only", async () => {
      const harness = make();
      const board = harness.board(LONG_TTL_SECONDS);
      const [id, other] = [room('board-announce'), room('board-quiet')];
      const here = listen(harness.elsewhere, id);
      const there = listen(harness.elsewhere, other);
      try {
        const view = { colormap: 'bone', camera: FULL_VIEW.camera };
        await board.announce(id, 'view', view);
        await board.announce(other, 'result', { specimen_id: 'bunny' });
        // One channel carries both in order: once the second is in, the first is too.
        await waitFor(() => (there.events.length > 0 ? true : undefined), "the other room's event");
        expect(here.events).toEqual([{ event: 'view', data: view }]);
        expect(there.events).toEqual([{ event: 'result', data: { specimen_id: 'bunny' } }]);
      } finally {
        here.off();
        there.off();
      }
    });
  });
}
