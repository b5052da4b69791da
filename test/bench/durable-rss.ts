/**
 * @module durable-rss
 * Section 4 of `npm run bench durable`: a lone host's resident memory (VmRSS, sampled every
 * 50 ms) with many published volumes in its data folder. 80 uint16 volumes of 128 MiB each
 * (10 GiB; 8 in the quick run) are published into a host with a small `--cache-max-bytes` (256
 * MiB: a published file must fit in it, hence files of half its size); the
 * host is stopped and started again on the folder, and every volume's data is read back once.
 * The figure is the largest RSS over the reads, against the cache's bound plus 300 MiB; beside
 * it, the same host's RSS on an empty folder and its largest RSS while the volumes were sent.
 * The folder is removed at the end.
 */
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { spawnHost, type RunningHost } from '../helpers/spawn-host.ts';
import { download, fmt } from './host-helpers.ts';

const MIB = 1024 * 1024;
/** z, y, x of each volume: 128 MiB of uint16. */
const SHAPE = [256, 512, 512];
const VALUES = SHAPE.reduce((a, b) => a * b, 1);
const VOLUME_MIB = (VALUES * 2) / MIB;
const CACHE_MAX = 256 * MIB;

/** A uint16 `.npy` of SHAPE (one buffer reused); `stamp` makes each file's bytes its own. */
function npyVolume(): { bytes: Uint8Array<ArrayBuffer>; stamp(n: number): void } {
  let header = `{'descr': '<u2', 'fortran_order': False, 'shape': (${SHAPE.join(', ')}), }`;
  header += ' '.repeat((64 - ((10 + header.length + 1) % 64)) % 64) + '\n';
  const prelude = Buffer.from([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, 1, 0, header.length & 0xff, header.length >> 8]);
  const start = prelude.length + header.length;
  const bytes = new Uint8Array(start + VALUES * 2);
  bytes.set(prelude);
  bytes.set(Buffer.from(header, 'latin1'), prelude.length);
  const values = new Uint16Array(bytes.buffer, start, VALUES);
  for (let i = 0; i < values.length; i++) values[i] = (i * 31) & 0xfff;
  return { bytes, stamp: (n) => values.fill(n, 0, 4096) };
}

/** Samples a process's VmRSS until `stop`, which gives the largest seen in bytes. */
export function sampleRss(pid: number): { stop(): number } {
  let max = 0;
  const read = () => {
    try {
      const kb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
      max = Math.max(max, kb * 1024);
    } catch {
      // The process has ended.
    }
  };
  read();
  const timer = setInterval(read, 50);
  return {
    stop() {
      clearInterval(timer);
      read();
      return max;
    },
  };
}

const args = (folder: string) => [
  '--port', '0', '--specimens', 'none', '--plugins', 'none', '--log-level', 'warn', '--data-dir', folder,
  '--cache-max-bytes', String(CACHE_MAX),
];

async function publishAll(host: RunningHost, count: number): Promise<void> {
  const volume = npyVolume();
  for (let i = 0; i < count; i++) {
    volume.stamp(i + 1);
    const res = await fetch(`${host.url}/api/specimens/vol${i}?filename=vol${i}.npy`, {
      method: 'PUT',
      headers: { 'content-type': 'application/octet-stream' },
      body: volume.bytes,
    });
    if (res.status !== 201) throw new Error(`publishing vol${i} answered ${res.status}: ${await res.text()}`);
    await res.arrayBuffer();
  }
}

/** The lines of the section; `quick` publishes 1 GiB rather than 10. */
export async function publishedRss(dir: string, quick: boolean): Promise<string[]> {
  const count = (quick ? 1024 : 10240) / VOLUME_MIB;
  const folder = path.join(dir, 'published');
  const empty = await spawnHost(args(path.join(dir, 'published-empty')));
  const emptyRss = sampleRss(empty.child.pid!).stop();
  await empty.stop();
  let host = await spawnHost(args(folder));
  const sending = sampleRss(host.child.pid!);
  const sendStarted = performance.now();
  await publishAll(host, count);
  const sendSeconds = (performance.now() - sendStarted) / 1000;
  const sendingRss = sending.stop();
  await host.stop();
  host = await spawnHost(args(folder));
  const reading = sampleRss(host.child.pid!);
  const readStarted = performance.now();
  let bytes = 0;
  try {
    for (let i = 0; i < count; i++) {
      const read = await download(`${host.url}/api/specimens/vol${i}/data`);
      if (read.status !== 200) throw new Error(`vol${i}/data answered ${read.status} after the restart`);
      bytes += read.bytes;
    }
  } finally {
    await host.stop();
  }
  const readSeconds = (performance.now() - readStarted) / 1000;
  const readingRss = reading.stop();
  rmSync(folder, { recursive: true, force: true });
  const mib = (n: number) => `${fmt(n / MIB, 0)} MiB`;
  return [
    `RSS with ${count} published ${VOLUME_MIB} MiB volumes (${fmt((count * VOLUME_MIB) / 1024, 1)} GiB) on disk, --cache-max-bytes ${mib(CACHE_MAX)}: ` +
      `largest ${mib(readingRss)} while every one was read after a restart (${mib(bytes)} in ${fmt(readSeconds, 1)} s); goal <= ` +
      `${mib(CACHE_MAX + 300 * MIB)}; the same host on an empty folder ${mib(emptyRss)}; largest while they were published ` +
      `${mib(sendingRss)} (${fmt(sendSeconds, 1)} s)`,
  ];
}
