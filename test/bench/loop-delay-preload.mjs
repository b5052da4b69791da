/**
 * @module loop-delay-preload
 * Loaded into a host process by the event-loop bench (`node --import`): the delay of a timer of
 * 5 ms resolution on the main thread (perf_hooks), i.e. how long its longest turns were, and
 * what each long turn was made of. A turn's wall time on a shared machine is the host's work
 * plus the time its thread waited for a core; the kernel counts both per thread
 * (`/proc/self/task/<pid>/schedstat`: nanoseconds on a CPU, nanoseconds waiting to run), so a
 * 10 ms ticker reads them and each gap between its ticks is split into the two. A host that
 * blocks shows a turn with much CPU; a loaded machine shows long turns with little.
 * SIGUSR2 writes what was recorded since the last SIGUSR2 to the file LOOP_DELAY_FILE names
 * (JSON: max, p99, p50 in ms and the count; `longest` and `busiest` turns as `{wall, cpu, wait,
 * at}` in ms, `at` on the monotonic clock; `turns`, the few busiest) and starts over.
 */
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';

const histogram = monitorEventLoopDelay({ resolution: 5 });
histogram.enable();

/** The main thread's id is the process's. */
const SCHEDSTAT = `/proc/self/task/${process.pid}/schedstat`;
const TICK_MS = 10;
/** Turns kept by their CPU time, most first. */
const KEEP = 5;
const monotonicMs = () => Number(process.hrtime.bigint() / 1000n) / 1000;

/** Milliseconds the main thread has run and waited for a core, or null where the kernel does not say. */
function threadTimes() {
  try {
    const [run, wait] = readFileSync(SCHEDSTAT, 'utf8').split(' ').map(Number);
    return { cpu: run / 1e6, wait: wait / 1e6 };
  } catch {
    return null;
  }
}

let last = { at: monotonicMs(), times: threadTimes() };
let longest = null;
let turns = [];
if (last.times) {
  setInterval(() => {
    const now = { at: monotonicMs(), times: threadTimes() };
    const turn = {
      at: last.at,
      // The whole gap between two ticks, the timer's own 10 ms in it, as the CPU and wait are counted over it.
      wall: now.at - last.at,
      cpu: now.times.cpu - last.times.cpu,
      wait: now.times.wait - last.times.wait,
    };
    last = now;
    if (!longest || turn.wall > longest.wall) longest = turn;
    if (turns.length < KEEP || turn.cpu > turns.at(-1).cpu) turns = [...turns, turn].sort((a, b) => b.cpu - a.cpu).slice(0, KEEP);
  }, TICK_MS).unref();
}

process.on('SIGUSR2', () => {
  const ms = (ns) => ns / 1e6;
  const summary = {
    max: ms(histogram.max),
    p99: ms(histogram.percentile(99)),
    p50: ms(histogram.percentile(50)),
    count: histogram.count,
    longest,
    busiest: turns[0] ?? null,
    turns,
  };
  // Written aside then renamed: the bench never reads half of it.
  writeFileSync(`${process.env.LOOP_DELAY_FILE}.part`, JSON.stringify(summary));
  renameSync(`${process.env.LOOP_DELAY_FILE}.part`, process.env.LOOP_DELAY_FILE);
  histogram.reset();
  longest = null;
  turns = [];
});
