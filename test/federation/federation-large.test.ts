/**
 * A 256 MiB volume computed on a worker and fetched through the relay: it crosses the
 * WebSocket in bounded binary chunks with no size cap, keeps its shape and bytes, and the
 * static-file path streams a worker's file of the same order through the relay. The relay
 * answers its first client while the bytes still cross: a client gone after the first bytes
 * cancels the rest of the transfer on the worker.
 */
import { mkdtempSync, mkdirSync, rmSync, writeFileSync, openSync, writeSync, closeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedFixturePlugins, NO_PLUGINS, workerArgs } from './helpers/fixture-build.ts';
import { killAll, registered, startHost, type HostProcess } from './helpers/host-process.ts';
import { readVolumeStream } from './helpers/read-volume-stream.ts';

const MIB = 1024 * 1024;
/** The result the client leaves after its first bytes, then fetches whole. */
const CUT_MIB = 64;
let plugins: { dir: string };
let specimens: string;
let relay: HostProcess;
let worker: HostProcess;

/** A static `.bin` of `size` bytes whose byte i is (i * 7 + 3) mod 256, written in 1 MiB blocks. */
function writePatternFile(file: string, size: number): void {
  const block = Buffer.alloc(MIB);
  for (let i = 0; i < MIB; i++) block[i] = (i * 7 + 3) & 255;
  const fd = openSync(file, 'w');
  for (let written = 0; written < size; written += MIB) writeSync(fd, block, 0, Math.min(MIB, size - written));
  closeSync(fd);
}

beforeAll(async () => {
  plugins = await sharedFixturePlugins();
  specimens = mkdtempSync(path.join(tmpdir(), 'vitrine-fed-large-'));
  mkdirSync(path.join(specimens, 'blob'));
  writePatternFile(path.join(specimens, 'blob', 'blob.bin'), 64 * MIB);
  writeFileSync(path.join(specimens, 'blob', 'specimen.json'), JSON.stringify({ id: 'blob', display_name: 'Blob', data_file: 'blob.bin' }));
  relay = await startHost(['--relay', '--specimens', path.join(specimens, 'none'), '--plugins', NO_PLUGINS]);
  worker = await startHost(workerArgs(relay.url, 'big', plugins.dir, specimens));
  await registered(relay, 'big:big', 'big:blob');
});

afterAll(async () => {
  await killAll();
  if (specimens) rmSync(specimens, { recursive: true, force: true });
});

describe('large payloads through the relay', () => {
  it('a 256 MiB computed volume arrives whole, with the right bytes', async () => {
    const bytes = 256 * MIB;
    const res = await fetch(`${relay.url}/api/specimens/big:big/data?params=${encodeURIComponent('{"mib":256}')}`);
    expect(res.status).toBe(200);
    const preambleLength = Number(res.headers.get('content-length')) - bytes;
    expect(preambleLength).toBeGreaterThan(4);
    const offsets = [0, 1, 4095, MIB + 17, 100 * MIB + 3, bytes - 2, bytes - 1];
    const volume = await readVolumeStream(res, offsets);
    expect(volume.preamble).toMatchObject({ type: 'volume', shape: [4096, 256, 256], dtype: 'uint8', spacing: [1, 1, 2] });
    expect(volume.dataBytes).toBe(bytes);
    for (const offset of offsets) expect(volume.samples.get(offset)).toBe((offset * 31 + 7) & 255);
  });

  it('streams a relayed result as it arrives: a client gone after the first bytes cancels the rest on the worker', async () => {
    // A result of 64 MiB takes seconds to cross the relay here, far longer than a client takes
    // to read its first bytes and go: big enough that only a relay answering as the bytes
    // arrive lets it go before the end, and fetched whole once more after.
    const from = worker.logs().length;
    const controller = new AbortController();
    const res = await fetch(`${relay.url}/api/specimens/big:big/data?params=${encodeURIComponent(JSON.stringify({ mib: CUT_MIB }))}&room_id=cut-short`, {
      signal: controller.signal,
    });
    expect(res.status).toBe(200);
    expect(Number(res.headers.get('content-length'))).toBeGreaterThan(CUT_MIB * MIB);
    const reader = res.body!.getReader();
    const first = await reader.read();
    expect(first.done).toBe(false);
    expect(first.value!.byteLength).toBeLessThan(CUT_MIB * MIB);
    controller.abort();
    // Had the relay waited for the whole result before answering, the transfer would be over.
    await worker.waitForLog(/the relay cancelled big_volume in room cut-short/, from);
    const stats = (await (await fetch(`${relay.url}/api/processing/cache/stats`)).json()) as { entries: { room_id: string }[] };
    expect(stats.entries.map((e) => e.room_id)).not.toContain('cut-short');
    // The relay is fine: the same request, whole this time.
    const again = await fetch(`${relay.url}/api/specimens/big:big/data?params=${encodeURIComponent(JSON.stringify({ mib: CUT_MIB }))}&room_id=cut-short`);
    const volume = await readVolumeStream(again, [0, CUT_MIB * MIB - 1]);
    expect(volume.dataBytes).toBe(CUT_MIB * MIB);
    expect(volume.samples.get(CUT_MIB * MIB - 1)).toBe(((CUT_MIB * MIB - 1) * 31 + 7) & 255);
  });

  it('a 64 MiB static file streams through with its length', async () => {
    const res = await fetch(`${relay.url}/api/specimens/big:blob/data`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-length')).toBe(String(64 * MIB));
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="blob.bin"');
    let total = 0;
    let mismatches = 0;
    for await (const part of res.body as unknown as AsyncIterable<Uint8Array>) {
      for (let i = 0; i < part.length; i += 65_537) if (part[i] !== (((total + i) * 7 + 3) & 255)) mismatches++;
      total += part.length;
    }
    expect(total).toBe(64 * MIB);
    expect(mismatches).toBe(0);
  });

  // Last: it kills the worker.
  it('a worker killed mid-transfer cuts the relayed response short instead of leaving it hanging', async () => {
    const res = await fetch(`${relay.url}/api/specimens/big:big/data?params=${encodeURIComponent('{"mib":224}')}&room_id=killed`);
    expect(res.status).toBe(200);
    const announced = Number(res.headers.get('content-length'));
    const reader = res.body!.getReader();
    let received = (await reader.read()).value!.byteLength;
    await worker.kill('SIGKILL');
    const outcome = await (async () => {
      try {
        for (;;) {
          const part = await reader.read();
          if (part.done) return 'ended';
          received += part.value.byteLength;
        }
      } catch {
        return 'cut short';
      }
    })();
    expect(outcome).toBe('cut short');
    expect(received).toBeLessThan(announced);
    const stats = (await (await fetch(`${relay.url}/api/processing/cache/stats`)).json()) as { entries: { room_id: string }[] };
    expect(stats.entries.map((e) => e.room_id)).not.toContain('killed');
  });
});
