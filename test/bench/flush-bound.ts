/**
 * @module flush-bound
 * The floor under a durable write, measured in the bench's own process on the disk of the bench's
 * data folder, beside the hosts in the same run: a bare flush loop (a 4 KiB page written and
 * fdatasync'ed; then LMDB's commit pattern, the page, fdatasync, and the meta page through a
 * file opened O_DSYNC, which is what lmdb-js does here: strace of the host shows one fdatasync
 * and one meta pwrite a commit), lmdb-js alone (one small `put` and its commit, the data store's
 * options), and the data store's own `write` (a batched transaction, its work a child one) with no
 * host around it, and a bare hop to a libuv pool thread and back (an fstat: lmdb-js commits a
 * write on such a thread, which makes that round trip besides its flush). What the host adds on disk over memory is read against these.
 */
import { execFileSync } from 'node:child_process';
import { closeSync, constants, fdatasyncSync, fstat, mkdirSync, openSync, writeSync } from 'node:fs';
import path from 'node:path';
import { open } from 'lmdb';
import { openDataStore, STORE_OPTIONS, type DataStore } from '../../core/durable/data-store.ts';

const PAGE = 4096;
/** The pages the loop writes over in turn, as a small store's file would. */
const PAGES = 64;

/** One sample of each floor, in milliseconds. */
export interface FlushSample {
  fdatasync: number;
  lmdbPattern: number;
  lmdbPut: number;
  storeWrite: number;
  poolHop: number;
}

export interface FlushBound {
  /** The filesystem and device the folder lies on (`df -T`). */
  readonly disk: string;
  sample(i: number): Promise<FlushSample>;
  /** Milliseconds of one lmdb-js put and its flushed commit alone (the floor's `lmdbPut`), for sampling in the adds' turns. */
  commit(i: number): Promise<number>;
  close(): Promise<void>;
}

function diskOf(dir: string): string {
  try {
    const [device, type] = execFileSync('df', ['-T', dir], { encoding: 'utf8' }).trim().split('\n').at(-1)!.split(/\s+/);
    return `${type} on ${device}`;
  } catch {
    return 'an unknown filesystem';
  }
}

/** The floors measured in `dir` (made here, on the disk the hosts' data folders use). */
export async function openFlushBound(dir: string): Promise<FlushBound> {
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'pages');
  const fd = openSync(file, 'w');
  const meta = openSync(file, constants.O_WRONLY | constants.O_DSYNC);
  const page = Buffer.alloc(PAGE, 7);
  const env = open({ path: path.join(dir, 'alone.mdb'), ...STORE_OPTIONS });
  const alone = env.openDB<unknown, (string | number)[]>({ name: 'marks' });
  const store: DataStore = await openDataStore(path.join(dir, 'store'));
  const marks = store.db<unknown>('bench-marks');
  const record = (i: number) => ({ id: String(i), kind: 'point', points: [[i, 0, 0]], version: 1, created: i, updated: i });
  const timed = async (work: () => unknown) => {
    const started = performance.now();
    await work();
    return performance.now() - started;
  };
  return {
    disk: diskOf(dir),
    commit: (i) => timed(() => alone.put(['turn', i], record(i))),
    async sample(i) {
      const at = (2 + (i % PAGES)) * PAGE;
      const floors: [keyof FlushSample, () => unknown][] = [
        ['fdatasync', () => (writeSync(fd, page, 0, PAGE, at), fdatasyncSync(fd))],
        ['lmdbPattern', () => (writeSync(fd, page, 0, PAGE, at), fdatasyncSync(fd), writeSync(meta, page, 0, 128, (i % 2) * PAGE))],
        ['lmdbPut', () => alone.put(['bench', i], record(i))],
        ['storeWrite', () => store.write(() => marks.put(['bench', i], record(i)))],
        ['poolHop', () => new Promise((resolve) => fstat(fd, resolve))],
      ];
      // Each in turn goes first: none is always the one after another's flush.
      const taken: Partial<FlushSample> = {};
      for (let k = 0; k < floors.length; k++) {
        const [name, work] = floors[(i + k) % floors.length]!;
        taken[name] = await timed(work);
      }
      return taken as FlushSample;
    },
    async close() {
      closeSync(fd);
      closeSync(meta);
      await env.close();
      await store.close();
    },
  };
}
