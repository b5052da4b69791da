/**
 * @module followers
 * The probe's stalled followers: 300 room event streams that read the response head and then
 * never read, on a room that 8 writers change as fast as they can (events of about 15 KB).
 * Measures the room's change rate against the same writers with no stalled stream.
 */
import { fmt } from '../host-helpers.ts';
import { changingRoom } from '../room-streams.ts';
import type { ProbePart } from './part.ts';

const STALLED = 300;
const WRITERS = 8;
const WINDOW_S = Number(process.env.VITRINE_PROBE_WINDOW_S ?? 20);

async function measure(): Promise<string[]> {
  const room = { readers: 2, writers: WRITERS, windowS: WINDOW_S };
  const control = await changingRoom({ ...room, stalled: 0 });
  const run = await changingRoom({ ...room, stalled: STALLED });
  const rate = (changes: number) => changes / WINDOW_S;
  return [
    `room changes/s: ${fmt(rate(control.changes), 1)} with no stalled stream, ${fmt(rate(run.changes), 1)} with ${STALLED}: ratio ` +
      `${fmt(run.changes / control.changes)} (target >= 0.8)`,
    `stalled streams the host ended: ${run.closed} of ${STALLED}; reading streams still open: ${run.open} of ${room.readers} ` +
      `(events each ${run.events.join(', ')})`,
    `changes in each second: with ${STALLED} ${run.perSecond.join(' ')}; with none ${control.perSecond.join(' ')}`,
    `host RSS ${fmt(run.before, 0)} -> peak ${fmt(run.peak, 0)} MiB (control ${fmt(control.before, 0)} -> ${fmt(control.peak, 0)})`,
  ];
}

export const followersPart: ProbePart = {
  name: 'followers',
  title: `${STALLED} stalled room streams, ${WRITERS} writers changing the room for ${WINDOW_S} s, against none`,
  measure,
};
