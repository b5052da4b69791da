/**
 * @module push.bench
 * `npm run bench push`: the event streams against a host process on loopback.
 * 1. 1,000 room streams over 50 rooms plus 500 job streams on one host: the host's RSS per
 *    stream, that every stream got its first event, and the fan-out of `result` when `/data`
 *    runs in a few rooms (and in all 50 at once): first → last subscriber, and /data sent → last.
 * 2. Report → client latency of a job's progress while two CPU-bound jobs run (pool of 3 on
 *    2 cores: the two `burn` jobs and the followed `pulse`, itself CPU-bound, reporting every
 *    50 ms with its report time), followed at the same time by its event stream and by polling
 *    `/progress?since=` every 500 ms as the VR client does.
 */
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { SseParser } from '../../core/client/sse-parser.ts';
import type { ProgressMessage, ProgressResponse } from '../../core/wire/wire-types.ts';
import { rssBytes } from '../helpers/process-rss.ts';
import { fmt, percentile, startBenchHost } from './host-helpers.ts';

const ROOMS = 50;
const PER_ROOM = 20;
const JOB_STREAMS = 500;
const FANOUT_ROUNDS = 10;
const FANOUT_ROOMS = 5;
const PHASE_S = 20;
const POLL_MS = 500;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Received {
  event: string;
  data: unknown;
  at: number;
}

interface Stream {
  events: Received[];
  ended: boolean;
  close(): void;
}

/** Opens an event stream on its own connection; resolves once the 200 head arrived. */
function openSse(url: string, onEvent: (event: Received) => void = () => {}): Promise<Stream> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent: false, headers: { accept: 'text/event-stream' } }, (res) => {
      if (res.statusCode !== 200) {
        res.resume();
        reject(new Error(`GET ${url} answered ${res.statusCode}`));
        return;
      }
      const parser = new SseParser();
      const stream: Stream = { events: [], ended: false, close: () => req.destroy() };
      res.setEncoding('utf8');
      res.on('data', (text: string) => {
        const at = performance.now();
        for (const message of parser.push(text)) {
          const event = { event: message.event, data: JSON.parse(message.data) as unknown, at };
          stream.events.push(event);
          onEvent(event);
        }
      });
      res.on('end', () => (stream.ended = true));
      res.on('error', () => (stream.ended = true));
      resolve(stream);
    });
    req.on('error', reject);
    req.end();
  });
}

/** Waits (bounded) until `condition` holds. */
async function until(condition: () => boolean, what: string, ms = 30_000): Promise<void> {
  const deadline = performance.now() + ms;
  while (!condition()) {
    if (performance.now() > deadline) throw new Error(`${what} did not happen within ${ms} ms`);
    await sleep(5);
  }
}

/** Runs `fn` over `items` with at most `width` in flight. */
async function inBatches<T>(items: T[], width: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: width }, async () => {
    while (next < items.length) await fn(items[next++]!);
  }));
}

const openFiles = (pid: number | 'self') => /Max open files\s+(\d+|unlimited)/.exec(readFileSync(`/proc/${pid}/limits`, 'utf8'))?.[1] ?? '?';
/** Receive − report time in ms, by the machine's monotonic clock the `pulse` text carries. */
function latency(message: ProgressMessage, received: bigint): number {
  const mono = /mono=(\d+)/.exec(message.text)?.[1];
  if (!mono) throw new Error(`no report time in '${message.text}'`);
  return Number(received - BigInt(mono)) / 1e6;
}
/** The host's RSS: the median of five readings 250 ms apart, after a 2 s settle. */
async function settledRss(pid: number): Promise<number> {
  await sleep(2000);
  const readings: number[] = [];
  for (let i = 0; i < 5; i++, await sleep(250)) readings.push(rssBytes(pid));
  return percentile(readings, 50);
}
const kib = (bytes: number) => bytes / 1024;
const stats = (xs: number[], digits = 1) => `p50 ${fmt(percentile(xs, 50), digits)} ms, p99 ${fmt(percentile(xs, 99), digits)} ms`;

export async function run(): Promise<{ name: string; lines: string[] }> {
  const lines: string[] = [];
  const host = await startBenchHost(['--pool-size', '3']);
  const pid = host.child.pid!;
  const at = (path: string) => `${host.url}${path}`;
  const data = async (room: string, triangles: number) => {
    const res = await fetch(at(`/api/specimens/grid_mesh/data?params=${encodeURIComponent(JSON.stringify({ triangles }))}&room_id=${room}`));
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`/data in ${room} answered ${res.status}`);
  };
  const start = async (fn: string, params: object, room: string) => {
    const res = await fetch(at(`/api/specimens/${fn}/start`), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ params, room_id: room }),
    });
    return ((await res.json()) as { job_id: string }).job_id;
  };
  try {
    const needed = ROOMS * PER_ROOM + JOB_STREAMS + 50;
    const [hostLimit, ownLimit] = [openFiles(pid), openFiles('self')];
    lines.push(`open-file limits: host ${hostLimit}, bench client ${ownLimit} (each needs ~${needed}); per-host stream cap 10,000`);
    for (const limit of [hostLimit, ownLimit]) if (limit !== 'unlimited' && Number(limit) < needed) throw new Error(`raise ulimit -n to ${needed} or more`);

    // ---- 1. 1,000 room streams and 100 job streams ------------------------------------------
    // Warm the paths once (compute, a room stream, a job stream), then settle: the "before"
    // figure is a host that has served one of each.
    await data('warm', 2);
    const warmJob = await start('pulse', { seconds: 0.2, interval_ms: 50, busy: false }, 'warm-job');
    for (const url of [at('/api/rooms/warm/events'), at(`/api/jobs/${warmJob}/events`)]) {
      const s = await openSse(url);
      await until(() => s.events.length > 0, 'a warm-up event');
      s.close();
    }
    // Half the rooms hold an entry, so their `state` is not null.
    for (let r = 0; r < ROOMS; r += 2) await data(`push-${r}`, 2);
    const before = await settledRss(pid);

    const rooms: Stream[][] = Array.from({ length: ROOMS }, () => []);
    const opened = performance.now();
    await inBatches(Array.from({ length: ROOMS * PER_ROOM }, (_, i) => i % ROOMS), 50, async (r) => {
      rooms[r]!.push(await openSse(at(`/api/rooms/push-${r}/events`)));
    });
    const roomStreams = rooms.flat();
    await until(() => roomStreams.every((s) => s.events.length > 0), 'a state event on every room stream');
    const openedIn = performance.now() - opened;
    const withState = roomStreams.filter((s) => s.events[0]?.event === 'state').length;
    const nonNull = roomStreams.filter((s) => s.events[0]?.data !== null).length;
    const afterRooms = await settledRss(pid);
    lines.push(
      `${roomStreams.length} room streams over ${ROOMS} rooms opened in ${fmt(openedIn / 1000, 1)} s (50 opening at a time): ${withState} got \`state\` ` +
      `first (${nonNull} with an entry, ${withState - nonNull} null)`,
    );
    lines.push(
      `host RSS ${fmt(before / 2 ** 20, 1)} MiB before, ${fmt(afterRooms / 2 ** 20, 1)} MiB with them open: ` +
      `${fmt(kib(afterRooms - before) / roomStreams.length, 1)} KiB per room stream`,
    );

    const slowJob = await start('pulse', { seconds: 120, interval_ms: 1000, busy: false }, 'push-job');
    const jobStreams: Stream[] = [];
    await inBatches(Array.from({ length: JOB_STREAMS }, (_, i) => i), 50, async () => {
      jobStreams.push(await openSse(at(`/api/jobs/${slowJob}/events`)));
    });
    await until(() => jobStreams.every((s) => s.events.some((e) => e.event === 'progress')), 'a progress event on every job stream');
    const afterJobs = await settledRss(pid);
    lines.push(
      `+ ${JOB_STREAMS} job streams on one running job (a report a second): all got \`progress\`; RSS ${fmt(afterJobs / 2 ** 20, 1)} MiB, ` +
      `${fmt(kib(afterJobs - afterRooms) / JOB_STREAMS, 1)} KiB per job stream`,
    );

    // Fan-out: /data in FANOUT_ROOMS rooms at once, FANOUT_ROUNDS times, each time new parameters.
    let triangles = 1000;
    const fanout = async (roomIds: number[]) => {
      const marks = roomIds.map((r) => ({ r, triangles: triangles++, sent: 0 }));
      const resultOf = (s: Stream, n: number) =>
        s.events.find((e) => e.event === 'result' && (e.data as { params: { triangles: number } }).params.triangles === n);
      await Promise.all(marks.map(async (m) => {
        m.sent = performance.now();
        await data(`push-${m.r}`, m.triangles);
      }));
      await until(() => marks.every((m) => rooms[m.r]!.every((s) => resultOf(s, m.triangles))), 'a result on every subscriber');
      return marks.map((m) => {
        const times = rooms[m.r]!.map((s) => resultOf(s, m.triangles)!.at);
        return { sent: m.sent, first: Math.min(...times), last: Math.max(...times) };
      });
    };
    const small: { sent: number; first: number; last: number }[] = [];
    for (let round = 0; round < FANOUT_ROUNDS; round++) {
      small.push(...(await fanout(Array.from({ length: FANOUT_ROOMS }, (_, k) => (round * FANOUT_ROOMS + k) % ROOMS))));
      await sleep(200);
    }
    lines.push(
      `fan-out, /data in ${FANOUT_ROOMS} rooms at once × ${FANOUT_ROUNDS} rounds (${PER_ROOM} subscribers each, ${small.length} samples): ` +
        `first → last subscriber's \`result\` ${stats(small.map((s) => s.last - s.first), 2)}; ` +
        `/data sent → last subscriber ${stats(small.map((s) => s.last - s.sent))}`,
    );
    const all: number[] = [];
    const allSpread: number[] = [];
    for (let round = 0; round < 5; round++) {
      const got = await fanout(Array.from({ length: ROOMS }, (_, r) => r));
      allSpread.push(...got.map((g) => g.last - g.first));
      all.push(Math.max(...got.map((g) => g.last)) - Math.min(...got.map((g) => g.sent)));
      await sleep(200);
    }
    lines.push(
      `fan-out, /data in all ${ROOMS} rooms at once × 5 rounds (${ROOMS * PER_ROOM} subscribers; the 50 computations queue on 3 threads): first → last ` +
      `subscriber of a room ${stats(allSpread, 2)}; /data sent → last of the ${ROOMS * PER_ROOM} subscribers median ${fmt(percentile(all, 50), 1)} ms, ` +
      `max ${fmt(Math.max(...all), 1)} ms`,
    );

    await fetch(at(`/api/jobs/${slowJob}`), { method: 'DELETE' });
    await until(() => jobStreams.every((s) => s.ended), 'every job stream closing after the cancel');
    const ends = jobStreams.filter((s) => s.events.at(-1)?.event === 'error').length;
    for (const s of roomStreams) s.close();
    await until(() => roomStreams.every((s) => s.ended), 'every room stream closing');
    lines.push(
      `job cancelled: ${ends}/${JOB_STREAMS} job streams got \`error\` and closed; all streams closed, host RSS ` +
      `${fmt((await settledRss(pid)) / 2 ** 20, 1)} MiB`,
    );

    // ---- 2. Report → client latency while two CPU-bound jobs run -----------------------------
    const burners = [await start('burn', { seconds: PHASE_S + 15, seed: 1 }, 'burn-1'), await start('burn', { seconds: PHASE_S + 15, seed: 2 }, 'burn-2')];
    await sleep(1000);
    const followed = await start('pulse', { seconds: PHASE_S + 2, interval_ms: 50, busy: true }, 'push-follow');
    const jobStart = Date.now();
    // Counted: messages reported in [start + 1 s, start + 1 s + PHASE_S], by both followers alike.
    const counted = (m: ProgressMessage) => m.ts * 1000 >= jobStart + 1000 && m.ts * 1000 <= jobStart + 1000 + PHASE_S * 1000;
    const viaStream: number[] = [];
    const viaPoll: number[] = [];
    const stream = await openSse(at(`/api/jobs/${followed}/events`), (e) => {
      const now = process.hrtime.bigint();
      if (e.event === 'progress' && counted(e.data as ProgressMessage)) viaStream.push(latency(e.data as ProgressMessage, now));
    });
    const poller = (async () => {
      let since = -1;
      for (;;) {
        const res = await fetch(at(`/api/jobs/${followed}/progress?since=${since}`));
        const body = (await res.json()) as ProgressResponse;
        const now = process.hrtime.bigint();
        for (const m of body.messages) {
          if (counted(m)) viaPoll.push(latency(m, now));
          since = Math.max(since, m.seq);
        }
        if (body.status !== 'running') return;
        await sleep(POLL_MS);
      }
    })();
    await poller;
    await until(() => stream.ended, 'the followed job stream ending', 10_000);
    for (const id of burners) await fetch(at(`/api/jobs/${id}`), { method: 'DELETE' });
    lines.push(`progress of a CPU-bound job reporting every 50 ms while two CPU-bound jobs run (pool 3, 2 cores), ${PHASE_S} s, report → client:`);
    lines.push(`  event stream: ${viaStream.length} messages, ${stats(viaStream, 2)}, max ${fmt(Math.max(...viaStream), 1)} ms`);
    lines.push(`  polling /progress?since= every ${POLL_MS} ms: ${viaPoll.length} messages, ${stats(viaPoll)}, max ${fmt(Math.max(...viaPoll), 0)} ms`);
    lines.push(
      `  polling / stream: p50 ${fmt(percentile(viaPoll, 50) / percentile(viaStream, 50), 0)}x, p99 ` +
      `${fmt(percentile(viaPoll, 99) / percentile(viaStream, 99), 0)}x (times: the machine's monotonic clock, read in the host's worker thread at ` +
      `report() and in the client on receipt)`,
    );
  } finally {
    await host.stop('SIGTERM');
  }
  return { name: 'push: event streams', lines };
}
