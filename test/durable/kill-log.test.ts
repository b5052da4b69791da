/**
 * @module kill-log.test
 * A room and its log never disagree, on real processes with a data folder: a host is killed
 * with SIGKILL at a random moment while writers of every kind change rooms as fast as it answers
 * (marks added, changed, removed and imported in bulk, layers, the view, the specimen shown, a
 * closed room's access, snapshots); started again on the same folder, every acknowledged change
 * is in its room and in the room's log, and nothing is in one without the other
 * (room-log-check.ts). The suite kills once; VITRINE_LOG_ROUNDS sets how many kills, and
 * `npm run bench kill-log` runs 20 for the full figure. Then the same writers against a disk with
 * no room (a file-size limit on the running host, as refusals.test.ts makes one): some writes are
 * refused with 507, and every one answered 2xx is in its room's log, before and after there is
 * room again. Each test prints what was answered, the figure the bench reports.
 */
import { execFileSync } from 'node:child_process';
import { statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { STORE_FILE } from '../../core/durable/data-store.ts';
import { spawnFixtureHost } from '../helpers/fixture-host.ts';
import type { RunningHost } from '../helpers/spawn-host.ts';
import { waitFor } from '../helpers/wait-for.ts';
import { peopleDir } from '../people/people-helpers.ts';
import { BULK_MARKS, noneAcked, startWriters, type Acked } from './log-writers.ts';
import { checkRooms } from './room-log-check.ts';

const ROUNDS = Number(process.env.VITRINE_LOG_ROUNDS ?? 1);

function start(dir: string): Promise<RunningHost> {
  return spawnFixtureHost(['--data-dir', dir, '--pool-size', '1', '--no-viewer', '--log-level', 'warn']);
}

/** Whether every writer has had an answer at least once. */
const everyKind = (acked: Acked) => Object.values(acked.writes).every((n) => n > 0) && acked.snapshots.size > 0 && acked.changed.size > 0;

/** What the writers had answered, for the log of the run: a figure beside each kind. */
const answered = (acked: Acked) =>
  `${acked.added.size} marks added (${acked.changed.size} changed, ${acked.removed.size} removed), ${acked.writes.bulk} imports of ${BULK_MARKS}, ` +
  `${acked.writes.layers} layer writes, ${acked.writes.views} views, ${acked.writes.entries} specimens shown, ${acked.writes.access} access changes, ` +
  `${acked.snapshots.size} snapshots`;

/** Sets the running host's largest file size (its soft limit), as a full disk would stop writes. */
function limitFileSize(pid: number, bytes: number | 'unlimited'): void {
  execFileSync('prlimit', ['--pid', String(pid), `--fsize=${bytes}:unlimited`]);
}

describe('a host killed while every kind of writer writes', () => {
  it(`keeps each room and its log in step, every acknowledged change in both, ${ROUNDS} times`, async () => {
    const { dir, tokens } = await peopleDir(['ada']);
    const acked = noneAcked();
    let host = await start(dir);
    const restarts: number[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      const writers = startWriters(host.url, tokens.ada!, acked);
      const killAt = acked.count + 20 + Math.floor(Math.random() * 80);
      await waitFor(() => (acked.count >= killAt && everyKind(acked) ? true : undefined), `${killAt} answers, of every kind`);
      await host.stop('SIGKILL');
      await writers.done;
      const started = performance.now();
      host = await start(dir);
      restarts.push(performance.now() - started);
      // Each writer may have had one change kept without its answer in each round so far.
      await checkRooms(host.url, tokens.ada!, acked, round);
    }
    await host.stop();
    const median = [...restarts].sort((a, b) => a - b)[Math.floor(restarts.length / 2)]!;
    console.log(`kill -9, ${ROUNDS} rounds: ${answered(acked)} answered; 0 missing from room or log; restart median ${Math.round(median)} ms`);
  }, Math.max(300_000, ROUNDS * 60_000));
});

describe('a disk with no room while every kind of writer writes', () => {
  it('refuses some writes with 507, and logs every one it answered 2xx', async () => {
    const { dir, tokens } = await peopleDir(['ada']);
    const acked = noneAcked();
    const host = await start(dir);
    const full = startWriters(host.url, tokens.ada!, acked);
    await waitFor(() => (everyKind(acked) ? true : undefined), 'an answer of every kind');
    limitFileSize(host.child.pid!, statSync(path.join(dir, STORE_FILE)).size);
    await waitFor(() => (acked.refused >= 10 ? true : undefined), 'ten writes refused for want of room');
    full.stop();
    await full.done;
    // Every writer has had its last answer: the log holds exactly what was answered.
    await checkRooms(host.url, tokens.ada!, acked, 0);
    limitFileSize(host.child.pid!, 'unlimited');
    const before = acked.count;
    const again = startWriters(host.url, tokens.ada!, acked);
    await waitFor(() => (acked.count >= before + 30 ? true : undefined), 'thirty writes answered once there is room');
    again.stop();
    await again.done;
    await checkRooms(host.url, tokens.ada!, acked, 0);
    expect(acked.refused).toBeGreaterThanOrEqual(10);
    await host.stop();
    console.log(`full disk: ${acked.refused} writes refused with 507; ${answered(acked)} answered; 0 missing from room or log`);
  });
});
