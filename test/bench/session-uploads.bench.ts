/**
 * @module session-uploads.bench
 * `npm run bench session-uploads`: what session files cost a lone host's memory (a host
 * process with a data folder, its memory read from /proc). Three sessions of 900 MiB each (one
 * volume of random bytes, within the 1 GiB cap) are posted at once, each streamed from a file
 * so the client holds none of it; then one body of 1.1 GiB, past the cap, is streamed without a
 * declared length. Reports the host's resident memory before, at its peak and after each, and
 * the growth as a share of the bytes sent (a host holding the bodies would be at 1 or more;
 * target: three at once within 300 MiB of where it started). The files and the host's data
 * folder are removed after.
 */
import { createReadStream, createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { finished, pipeline } from 'node:stream/promises';
import { peakRssMiB, resetPeakRss, rssMiB } from '../helpers/process-rss.ts';
import { spawnHost } from '../helpers/spawn-host.ts';
import { volumeSession } from '../helpers/volume-session.ts';
import { fmt } from './host-helpers.ts';

const MIB = 1024 * 1024;
const SESSION_MIB = 900;
const REFUSED_MIB = 1126;

/** Writes a session of SESSION_MIB to `file` (the volume is let go once written). */
async function sessionFile(file: string, seed: number): Promise<number> {
  const { chunks, length } = volumeSession(SESSION_MIB, seed);
  const out = createWriteStream(file);
  for (const chunk of chunks) if (!out.write(chunk)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
  out.end();
  await finished(out);
  return length;
}

/** Posts `body` as a session (with its length when known, else chunked); the status. */
function post(base: string, body: Readable, length?: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = { 'content-type': 'application/x-tar' };
    if (length !== undefined) headers['content-length'] = length;
    const req = request(`${base}/api/snapshots`, { method: 'POST', headers }, (res) => {
      res.resume();
      res.once('end', () => resolve(res.statusCode ?? 0));
    });
    req.once('error', reject);
    // The host may answer (413) before the body ends: the status is what counts, not the rest sent.
    pipeline(body, req).catch(() => {});
  });
}

/** `mib` MiB of zeros, a MiB at a time. */
function zeros(mib: number): Readable {
  const block = Buffer.alloc(MIB);
  return Readable.from((function* () {
    for (let i = 0; i < mib; i++) yield block;
  })());
}

/** The host's memory around `work`: before, peak, after (MiB), and what it answered. */
async function measured(pid: number, work: () => Promise<number[]>) {
  const before = rssMiB(pid);
  resetPeakRss(pid);
  const statuses = await work();
  return { before, peak: peakRssMiB(pid), after: rssMiB(pid), statuses };
}

export async function run(): Promise<{ name: string; lines: string[] }> {
  const files = mkdtempSync(path.join(tmpdir(), 'vitrine-session-bench-'));
  // No request timeout: on a busy machine 900 MiB may take longer than the default to arrive.
  const args = ['--port', '0', '--plugins', 'none', '--specimens', 'none', '--data-dir', path.join(files, 'data'), '--no-viewer', '--log-level', 'warn'];
  const host = await spawnHost([...args, '--request-timeout', '0']);
  const pid = host.child.pid!;
  try {
    const sessions: { file: string; length: number }[] = [];
    for (const seed of [1, 2, 3]) {
      const file = path.join(files, `session-${seed}.vitrine`);
      sessions.push({ file, length: await sessionFile(file, seed) });
    }
    // Warm: the code every import runs is loaded before memory is measured.
    const warm = path.join(files, 'warm.vitrine');
    await pipeline(Readable.from(volumeSession(1, 0).chunks), createWriteStream(warm));
    await post(host.url, createReadStream(warm));
    const three = await measured(pid, () => Promise.all(sessions.map((s) => post(host.url, createReadStream(s.file), s.length))));
    const refused = await measured(pid, async () => [await post(host.url, zeros(REFUSED_MIB))]);
    const sent = sessions.reduce((sum, s) => sum + s.length, 0) / MIB;
    const line = (what: string, m: Awaited<ReturnType<typeof measured>>, bytes: number) =>
      `${what}: statuses ${m.statuses.join(', ')}; host RSS ${fmt(m.before, 0)} MiB before, peak ${fmt(m.peak, 0)} MiB, ` +
      `${fmt(m.after, 0)} MiB after; peak growth ${fmt(m.peak - m.before, 0)} MiB = ${fmt((m.peak - m.before) / bytes, 3)} of the ${fmt(bytes, 0)} MiB sent`;
    return {
      name: 'session uploads: what three large session files at once, and one past the cap, cost the host',
      lines: [
        `${line(`3 × ${SESSION_MIB} MiB sessions at once`, three, sent)} (target: growth within 300 MiB)`,
        line(`${REFUSED_MIB} MiB streamed without a length (past the 1 GiB cap)`, refused, REFUSED_MIB),
      ],
    };
  } finally {
    await host.stop('SIGKILL');
    rmSync(files, { recursive: true, force: true });
  }
}
