/**
 * @module refusals.test
 * A data folder the host cannot serve safely is refused at start, with what to do: one written
 * by a newer vitrine (naming both format versions), one by an older vitrine this one has no step
 * from (one it has steps from is migrated, its old store kept beside it, all or nothing), a damaged store file (naming it and how to
 * move it aside, a record past the meta pages that does not decode too; never an empty start in
 * its place), a store file gone from a folder still holding its bytes, a folder another host is using (naming the
 * folder and that host's pid; a lock naming a process that is not that host, as pid 1 after a container's
 * restart, is stale). And a disk with no room: a write answers 507 with its code and
 * nothing of it is kept, reads go on, and writes succeed again once there is room (a file-size
 * limit set on the running host with prlimit stands for a full disk).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { open } from 'lmdb';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDataStore, STORE_FILE } from '../../core/durable/data-store.ts';
import { formatCopyOf, type FormatStep } from '../../core/durable/store-format.ts';
import { ALLOCATOR_ENV } from '../../core/cli/allocator-env.ts';
import { CLI, REPO } from '../helpers/cli-path.ts';
import { spawnHost } from '../helpers/spawn-host.ts';
import { openTempDataStore, tempDataDir } from '../helpers/temp-data-store.ts';
import { binaryStl } from '../helpers/upload-files.ts';

const BASE = ['--port', '0', '--specimens', 'none', '--plugins', 'none', '--pool-size', '1', '--log-level', 'warn'];

/** `vitrine serve` on `dir`, expected to refuse: its exit code and what it wrote. */
function refusedServe(dir: string): { status: number | null; stderr: string; stdout: string } {
  const run = spawnSync(process.execPath, [CLI, 'serve', ...BASE, '--data-dir', dir], {
    cwd: REPO,
    encoding: 'utf8',
    env: { ...process.env, ...ALLOCATOR_ENV },
    timeout: 60_000,
  });
  return { status: run.status, stderr: run.stderr, stdout: run.stdout };
}

describe('a data folder refused at start', () => {
  it('written by a newer vitrine: both format versions named', async () => {
    const store = await openTempDataStore();
    await store.write(() => store.db('meta').put('format', { version: 2, created: 1 }));
    await store.close();
    const run = refusedServe(store.dir);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('store format 2; this one reads format 1');
    expect(run.stdout).not.toContain('listening on');
  });

  describe('written by an older vitrine', () => {
    /** A folder in format 0 holding one mark, its store closed. */
    async function formatZero(): Promise<string> {
      const store = await openTempDataStore();
      const [meta, marks] = [store.db('meta'), store.db('marks')];
      await store.write(() => {
        meta.putSync('format', { version: 0, created: 7 });
        marks.putSync('a', 'old');
      });
      await store.close();
      return store.dir;
    }
    /** The format record and the mark in `file`, read without a host. */
    function readStore(file: string): { format: unknown; mark: unknown } {
      const env = open({ path: file, readOnly: true, maxDbs: 64 });
      try {
        return { format: env.openDB({ name: 'meta' }).get('format'), mark: env.openDB({ name: 'marks' }).get('a') };
      } finally {
        void env.close();
      }
    }
    const renameMark: FormatStep = (db) => db('marks').putSync('a', `${String(db('marks').get('a'))}-new`);

    it('is brought forward at start by each step, a copy of it as it was kept beside it', async () => {
      const dir = await formatZero();
      const store = await openDataStore(dir, { steps: new Map([[0, renameMark]]), target: 1 });
      expect(store.db('marks').get('a')).toBe('old-new');
      expect(store.db('meta').get('format')).toEqual({ version: 1, created: 7, migrated_from: 0 });
      await store.close();
      expect(readStore(formatCopyOf(path.join(dir, STORE_FILE), 0))).toEqual({ format: { version: 0, created: 7 }, mark: 'old' });
    });

    it('is left as it was when a step fails, and refused naming the copy', async () => {
      const dir = await formatZero();
      const failing: FormatStep = (db) => {
        renameMark(db);
        throw new Error('a record it cannot read');
      };
      const opening = openDataStore(dir, { steps: new Map([[0, failing]]), target: 1 });
      await expect(opening).rejects.toThrow(`could not be brought from store format 0 to 1 (a record it cannot read); nothing of it was changed`);
      expect(readStore(path.join(dir, STORE_FILE))).toEqual({ format: { version: 0, created: 7 }, mark: 'old' });
    });

    it('is refused naming both formats when this vitrine has no step from it', async () => {
      const dir = await formatZero();
      const opening = openDataStore(dir, { steps: new Map(), target: 1 });
      await expect(opening).rejects.toThrow('written in store format 0, which this vitrine (format 1) cannot bring forward');
      expect(existsSync(formatCopyOf(path.join(dir, STORE_FILE), 0))).toBe(false);
      expect(readStore(path.join(dir, STORE_FILE)).format).toEqual({ version: 0, created: 7 });
    });
  });

  it('a damaged store file: named, with how to move it aside, and nothing started in its place', () => {
    const dir = tempDataDir();
    const file = path.join(dir, STORE_FILE);
    writeFileSync(file, Buffer.alloc(64 * 1024, 0x5a));
    const run = refusedServe(dir);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(`the store ${file} cannot be read`);
    expect(run.stderr).toContain(`mv '${file}' '${file}.damaged'`);
    expect(run.stdout).not.toContain('listening on');
  });

  it('a record damaged past the meta pages: the file and the way out named, not the decoder’s words', async () => {
    const store = await openTempDataStore();
    const marks = store.db('marks');
    await store.write(() => marks.put('r1', { kind: 'point', label: 'a-mark-to-damage', points: [[1, 2, 3]] }));
    await store.close();
    const file = path.join(store.dir, STORE_FILE);
    // One byte of the record's value (the type of its label) made one no encoder writes.
    const bytes = readFileSync(file);
    bytes[bytes.indexOf('a-mark-to-damage') - 1] = 0xc1;
    writeFileSync(file, bytes);
    const run = refusedServe(store.dir);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(`the store ${file} cannot be read (its record "r1" of database "marks" does not decode)`);
    expect(run.stderr).toContain(`mv '${file}' '${file}.damaged'`);
    expect(run.stderr).not.toMatch(/MessagePack|end of buffer/);
    expect(run.stdout).not.toContain('listening on');
  });

  it('a store file gone while its bytes are there: refused naming the file and what to do, never started empty', async () => {
    const dir = tempDataDir();
    const host = await spawnHost([...BASE, '--data-dir', dir]);
    const put = await fetch(`${host.url}/api/specimens/kept?filename=m.stl`, {
      method: 'PUT',
      headers: { 'content-type': 'application/octet-stream' },
      body: new Uint8Array(binaryStl()),
    });
    expect(put.status).toBe(201);
    await host.stop();
    const file = path.join(dir, STORE_FILE);
    rmSync(file);
    const run = refusedServe(dir);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(`the data dir ${dir} held a store, and its store file ${file} is gone`);
    expect(run.stderr).toContain(`mv '${dir}' '${dir}.orphaned'`);
    expect(run.stdout).not.toContain('listening on');
    expect(existsSync(file)).toBe(false);
    // Its bytes alone tell it too (the engine's lock file gone as well).
    rmSync(`${file}-lock`, { force: true });
    expect(refusedServe(dir).stderr).toContain(`1 file of bytes in ${path.join(dir, 'blobs')}`);
  });

  // A lock naming a live process that is not its host (pid 1 after a container restart) is stale.
  it('in use by another host: the folder and that host’s pid named; a lock of a host gone or of another process is stale', async () => {
    const dir = tempDataDir();
    // The lock a host running as pid 1 wrote before its container restarted: pid 1 runs again, started since.
    writeFileSync(path.join(dir, 'lock'), `1\nstart ${readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim()}/7\n`);
    const first = await spawnHost([...BASE, '--data-dir', dir]);
    expect(first.stdout()).toContain(`data: ${dir}`);
    // Its own lock names it, and holds against a second host.
    expect(readFileSync(path.join(dir, 'lock'), 'utf8')).toMatch(new RegExp(`^${first.child.pid}\nstart `));
    const run = refusedServe(dir);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(`the data dir ${dir} is in use by another vitrine host (pid ${first.child.pid})`);
    // Once the first host is gone (even killed), its lock is stale and the folder serves again.
    await first.stop('SIGKILL');
    const second = await spawnHost([...BASE, '--data-dir', dir]);
    expect(second.stdout()).toContain(`data: ${dir}`);
    await second.stop();
    // A lock of an older vitrine (a pid alone) naming a live process that is no vitrine is stale too.
    writeFileSync(path.join(dir, 'lock'), '1\n');
    const again = await spawnHost([...BASE, '--data-dir', dir]);
    expect(again.stdout()).toContain(`data: ${dir}`);
    await again.stop();
  });
});

/** Sets the running process's largest file size (bytes; 'unlimited'; its soft limit only, so it can be lifted), as a full disk would stop writes. */
function limitFileSize(pid: number, bytes: number | 'unlimited'): void {
  execFileSync('prlimit', ['--pid', String(pid), `--fsize=${bytes}:unlimited`]);
}

describe('a disk with no room', () => {
  it('answers 507 with its code, keeps nothing of the write, and takes writes again once there is room', async () => {
    const dir = tempDataDir();
    const host = await spawnHost([...BASE, '--data-dir', dir]);
    const octets = { 'content-type': 'application/octet-stream' };
    const put = (id: string, bytes: Buffer) =>
      fetch(`${host.url}/api/specimens/${id}?filename=m.stl`, { method: 'PUT', headers: octets, body: new Uint8Array(bytes) });
    const headers = { 'content-type': 'application/json' };
    const mark = () => fetch(`${host.url}/api/rooms/full/annotations`, { method: 'POST', headers, body: '{"kind":"point","points":[[1,2,3]]}' });
    expect((await put('small', binaryStl())).status).toBe(201);
    expect((await mark()).status).toBe(201);
    // A mesh of 40,000 triangles (2 MB) does not fit under a 1 MB file-size limit.
    const big = binaryStl(Array.from({ length: 40_000 }, (_, i) => [i, 0, 0, i, 1, 0, i, 0, 1]));
    limitFileSize(host.child.pid!, 1024 * 1024);
    const refused = await put('big', big);
    expect(refused.status).toBe(507);
    expect(await refused.json()).toMatchObject({ code: 'SPC_ERR_STORAGE_FULL' });
    expect((await fetch(`${host.url}/api/specimens/big`)).status).toBe(404);
    expect(readdirSync(path.join(dir, 'tmp'))).toEqual([]);
    // Reads go on, and so do writes that still fit.
    expect((await fetch(`${host.url}/api/specimens/small`)).status).toBe(200);
    expect((await mark()).status).toBe(201);
    limitFileSize(host.child.pid!, 'unlimited');
    expect((await put('big', big)).status).toBe(201);
    expect((await fetch(`${host.url}/api/specimens/big`)).status).toBe(200);
    // The file named by the record is whole (a write cut at the limit was never renamed into place).
    const named = readdirSync(path.join(dir, 'blobs')).map((name) => statSync(path.join(dir, 'blobs', name)).size);
    expect(named).toContain(big.length);
    // The store itself with no room to grow: a batch of marks is refused whole, and taken once there is room.
    const store = path.join(dir, STORE_FILE);
    const batch = JSON.stringify(Array.from({ length: 5000 }, (_, i) => ({ kind: 'point', points: [[i, 0, 0]], label: 'x'.repeat(100) })));
    const before = await (await fetch(`${host.url}/api/rooms/full/annotations`)).json();
    limitFileSize(host.child.pid!, statSync(store).size);
    const full = await fetch(`${host.url}/api/rooms/full/annotations`, { method: 'POST', headers, body: batch });
    expect(full.status).toBe(507);
    expect(await full.json()).toMatchObject({ code: 'SPC_ERR_STORAGE_FULL' });
    expect(await (await fetch(`${host.url}/api/rooms/full/annotations`)).json()).toEqual(before);
    limitFileSize(host.child.pid!, 'unlimited');
    expect((await fetch(`${host.url}/api/rooms/full/annotations`, { method: 'POST', headers, body: batch })).status).toBe(201);
    await host.stop();
  });
});
