/**
 * @module session-upload-memory.test
 * Session files are taken in from disk, not memory, on a lone host with a data folder (a real
 * process, its memory read from /proc): three sessions of 48 MiB each arriving at once raise
 * the host's peak memory by less than half of their bodies (holding the bodies would take
 * 144 MiB, and their results as many again; reading from disk holds a few slices of fixed size
 * each), their results land in the data folder byte for byte, a restore shows them, and nothing
 * is left in the folder's temporary files, nor after a file refused half way. The same at
 * 3 x 900 MiB is measured by `npm run bench session-uploads`.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { spawnFixtureHost } from '../helpers/fixture-host.ts';
import { peakRssMiB, resetPeakRss, rssMiB } from '../helpers/process-rss.ts';
import { tempDataDir } from '../helpers/temp-data-store.ts';
import { volumeSession } from '../helpers/volume-session.ts';

const MIB = 1024 * 1024;
/** Each session's size: large beside the slices the host holds while it reads one from disk, small enough to be quick. */
const SESSION_MIB = 48;

/** A session file of a volume of `megabytes` MiB, joined, and its ids. */
function sessionOf(megabytes: number, seed: number) {
  const session = volumeSession(megabytes, seed);
  return { ...session, file: Buffer.concat(session.chunks) };
}

/** Posts `file` as a session (a view of its bytes: the test sends large ones without copying them). */
const post = (url: string, file: Buffer) => {
  const body = new Uint8Array(file.buffer as ArrayBuffer, file.byteOffset, file.length);
  return fetch(`${url}/api/snapshots`, { method: 'POST', headers: { 'content-type': 'application/x-tar' }, body });
};

describe('session files taken in on a lone host', { timeout: 300_000 }, () => {
  it(`keep the host’s memory flat: three of ${SESSION_MIB} MiB at once, their results on disk`, async () => {
    const dir = tempDataDir();
    const host = await spawnFixtureHost(['--data-dir', dir, '--pool-size', '1', '--no-viewer', '--log-level', 'warn']);
    try {
      const pid = host.child.pid!;
      // A small one first, so the code every import runs is loaded before memory is measured.
      expect((await post(host.url, sessionOf(1, 1).file)).status).toBe(201);
      const sessions = [2, 3, 4].map((seed) => sessionOf(SESSION_MIB, seed));
      const before = rssMiB(pid);
      // The peak from here on.
      resetPeakRss(pid);
      const answers = await Promise.all(sessions.map((s) => post(host.url, s.file)));
      expect(answers.map((a) => a.status)).toEqual([201, 201, 201]);
      const grew = peakRssMiB(pid) - before;
      // Less than half the bodies: a host holding them as they arrive grows by all three at least.
      expect(grew, `the host's peak memory grew by ${grew.toFixed(0)} MiB`).toBeLessThan((3 * SESSION_MIB) / 2);
      // Each result lies in the data folder whole, served by its id, and shown by a restore.
      const first = sessions[0]!;
      const blob = readFileSync(path.join(dir, 'blobs', first.resultId));
      expect(createHash('sha256').update(blob).digest('hex')).toBe(first.payloadSha);
      const restored = await fetch(`${host.url}/api/rooms/restored/scene`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ snapshot: first.id }),
      });
      expect(restored.status).toBe(200);
      expect(((await restored.json()) as { layers: { result?: { result_id: string } }[] }).layers[0]?.result?.result_id).toBe(first.resultId);
      // Served by its id, whole (its length asked, not its bytes read again).
      const served = await fetch(`${host.url}/api/blobs/${first.resultId}`, { method: 'HEAD' });
      expect(served.status).toBe(200);
      expect(Number(served.headers.get('content-length'))).toBeGreaterThan(SESSION_MIB * MIB);
      // A file cut short half way is refused and leaves nothing behind either.
      const cut = await post(host.url, sessionOf(8, 5).file.subarray(0, 4 * MIB));
      expect(cut.status).toBe(400);
      expect(readdirSync(path.join(dir, 'tmp'))).toEqual([]);
    } finally {
      await host.stop();
    }
  });
});
