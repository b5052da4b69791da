/**
 * @module followers
 * The probe's stalled followers: 300 room event streams that read the response head and then
 * never read, on a room that 8 writers change as fast as they can (events of about 15 KB).
 * Measures the room's change rate against the same writers with no stalled stream, per second
 * too, and the machine's TCP socket memory at its peak (/proc/net/sockstat): until the host
 * drops them, each stalled stream's socket takes what the kernel lets it buffer.
 */
import { readFileSync } from 'node:fs';
import { fmt } from '../host-helpers.ts';
import { changingRoom } from '../room-streams.ts';
import type { ProbePart } from './part.ts';

const STALLED = 300;
const WRITERS = 8;
const WINDOW_S = Number(process.env.VITRINE_PROBE_WINDOW_S ?? 20);

/** The machine's TCP socket memory now, MiB (every socket's buffers, whoever owns them). */
function tcpMemoryMiB(): number {
  const pages = Number(/TCP:.* mem (\d+)/.exec(readFileSync('/proc/net/sockstat', 'utf8'))?.[1] ?? NaN);
  return (pages * 4096) / 2 ** 20;
}

/** Runs `measure` while sampling the TCP socket memory; returns its result and that memory's peak. */
async function withTcpPeak<T>(measure: () => Promise<T>): Promise<{ run: T; peak: number }> {
  let peak = tcpMemoryMiB();
  const sampler = setInterval(() => (peak = Math.max(peak, tcpMemoryMiB())), 250);
  try {
    return { run: await measure(), peak };
  } finally {
    clearInterval(sampler);
  }
}

async function measure(): Promise<string[]> {
  const room = { readers: 2, writers: WRITERS, windowS: WINDOW_S };
  const { run: control, peak: controlTcp } = await withTcpPeak(() => changingRoom({ ...room, stalled: 0 }));
  const { run, peak: runTcp } = await withTcpPeak(() => changingRoom({ ...room, stalled: STALLED }));
  const rate = (changes: number) => changes / WINDOW_S;
  return [
    `room changes/s: ${fmt(rate(control.changes), 1)} with no stalled stream, ${fmt(rate(run.changes), 1)} with ${STALLED}: ratio ` +
      `${fmt(run.changes / control.changes)} (target >= 0.8)`,
    `stalled streams the host ended: ${run.closed} of ${STALLED}; reading streams still open: ${run.open} of ${room.readers} ` +
      `(events each ${run.events.join(', ')})`,
    `changes in each second: with ${STALLED} ${run.perSecond.join(' ')}; with none ${control.perSecond.join(' ')}`,
    `host RSS ${fmt(run.before, 0)} -> peak ${fmt(run.peak, 0)} MiB (control ${fmt(control.before, 0)} -> ${fmt(control.peak, 0)}); ` +
      `the machine's TCP socket memory at its peak: ${fmt(runTcp, 0)} MiB with ${STALLED}, ${fmt(controlTcp, 0)} MiB with none`,
  ];
}

export const followersPart: ProbePart = {
  name: 'followers',
  title: `${STALLED} stalled room streams, ${WRITERS} writers changing the room for ${WINDOW_S} s, against none`,
  measure,
};
