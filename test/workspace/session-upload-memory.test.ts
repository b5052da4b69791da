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
import { createHash, randomFillSync } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { hashFrame } from '../../core/results/result-id.ts';
import { encodeResultFrame } from '../../core/results/result-frame.ts';
import type { StoredResult } from '../../core/results/stored-result.ts';
import { writeSession } from '../../core/snapshots/write-session.ts';
import { spawnFixtureHost } from '../helpers/fixture-host.ts';
import { tempDataDir } from '../helpers/temp-data-store.ts';

const MIB = 1024 * 1024;
/** Each session's size: large beside the slices the host holds while it reads one from disk, small enough to be quick. */
const SESSION_MIB = 48;

/** A session file of one layer showing a volume of `megabytes` MiB of random bytes (`seed` in its source), and its ids. */
function sessionOf(megabytes: number, seed: number): { file: Buffer; id: string; resultId: string; payloadSha: string } {
  const data = randomFillSync(new Uint8Array(megabytes * MIB));
  const result: StoredResult = { type: 'volume', shape: [data.length], dtype: 'uint8', data };
  const { header, blocks } = encodeResultFrame(result);
  const resultId = hashFrame(header, blocks);
  const layer = {
    id: 'big',
    kind: 'image',
    source: { function: 'big_volume', params: { megabytes, seed } },
    result: { result_id: resultId, type: 'volume', data_url: `/api/blobs/${resultId}`, blob_id: resultId },
  };
  const json = JSON.stringify({ annotations: [], scene: { layers: [layer], active: 'big' }, view: {} });
  const id = createHash('sha256').update(json).digest('hex');
  const { chunks } = writeSession(id, json, Date.now(), new Map([[resultId, result]]));
  const payloadSha = createHash('sha256').update(new Uint8Array(data.buffer)).digest('hex');
  return { file: Buffer.concat(chunks), id, resultId, payloadSha };
}

/** A field of /proc/<pid>/status in MiB (VmRSS: now; VmHWM: the peak since it was last reset). */
function memoryOf(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((l) => l.startsWith(`${field}:`))!;
  return Number(/(\d+)/.exec(line)![1]) / 1024;
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
      const before = memoryOf(pid, 'VmRSS');
      // The peak from here on (writing 5 to clear_refs resets it).
      writeFileSync(`/proc/${pid}/clear_refs`, '5');
      const answers = await Promise.all(sessions.map((s) => post(host.url, s.file)));
      expect(answers.map((a) => a.status)).toEqual([201, 201, 201]);
      const grew = memoryOf(pid, 'VmHWM') - before;
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
