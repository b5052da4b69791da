/**
 * @module blob-folder
 * Bytes by their SHA-256, one file each under `blobs/` of the data folder (`blobs/<sha256>`),
 * written whole before anything names them: to a temporary file, flushed, then renamed into
 * place (a rename is atomic, so a crash leaves either the whole file or none), and the folder
 * flushed so the name itself survives. The same bytes written twice are one file. A file read
 * back into memory is checked against its name as it comes (readChecked): a byte the disk
 * changed since is never taken for the bytes the name promises.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync } from 'node:fs';
import { open, readFile, readdir, rename, rm, stat, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { orStorageFull } from './storage-full.ts';

/** A blob's name: 64 hex digits. */
const NAME = /^[0-9a-f]{64}$/;
/** Bytes read (and hashed) at a time: a few milliseconds of hashing between two turns of the event loop. */
const READ_SLICE = 4 * 1024 * 1024;

export class BlobFolder {
  readonly dir: string;
  #tmp: string;
  #serial = 0;

  constructor(dataDir: string) {
    this.dir = path.join(dataDir, 'blobs');
    this.#tmp = path.join(dataDir, 'tmp');
    mkdirSync(this.dir, { recursive: true });
    mkdirSync(this.#tmp, { recursive: true });
  }

  /** The file of blob `sha`. */
  path(sha: string): string {
    if (!NAME.test(sha)) throw new Error(`not a blob name: '${sha}'`);
    return path.join(this.dir, sha);
  }

  has(sha: string): boolean {
    return NAME.test(sha) && existsSync(this.path(sha));
  }

  /**
   * Writes `parts` (one blob, in order) whole and durably; returns their SHA-256, or `sha` when
   * the caller knows it. A disk with no room is the 507, with nothing of the blob left.
   */
  async put(parts: readonly Uint8Array[], sha?: string): Promise<string> {
    return orStorageFull(this.#put(parts, sha));
  }

  async #put(parts: readonly Uint8Array[], sha?: string): Promise<string> {
    const name = sha ?? parts.reduce((hash, part) => hash.update(part), createHash('sha256')).digest('hex');
    return this.#written(name, async (handle) => {
      for (const part of parts) await writeWhole(handle, part);
    });
  }

  /**
   * Writes blob `sha` from `length` bytes of another file, from byte `offset` (a result lying in
   * a session file taken in), a slice at a time: the bytes never all sit in memory. The caller
   * has checked them against `sha`. A disk with no room is the 507, with nothing of the blob left.
   */
  async putRange(source: string, offset: number, length: number, sha: string): Promise<string> {
    return orStorageFull(
      this.#written(sha, async (handle) => {
        const from = await open(source, 'r');
        const slice = Buffer.allocUnsafe(Math.min(READ_SLICE, Math.max(1, length)));
        try {
          for (let at = 0; at < length; ) {
            const { bytesRead } = await from.read(slice, 0, Math.min(slice.length, length - at), offset + at);
            if (bytesRead === 0) throw new Error(`${source} ends before byte ${offset + length}`);
            await writeWhole(handle, slice.subarray(0, bytesRead));
            at += bytesRead;
          }
        } finally {
          await from.close();
        }
      }),
    );
  }

  /** Blob `name` written whole by `write` into a temporary file, flushed, then renamed into place (at once when it is there already). */
  async #written(name: string, write: (handle: FileHandle) => Promise<void>): Promise<string> {
    const file = this.path(name);
    if (existsSync(file)) return name;
    const tmp = path.join(this.#tmp, `${process.pid}-${++this.#serial}-${name.slice(0, 16)}`);
    const handle = await open(tmp, 'w');
    try {
      await write(handle);
      await handle.sync();
    } catch (error) {
      await handle.close().catch(() => {});
      await rm(tmp, { force: true });
      throw error;
    }
    await handle.close();
    await rename(tmp, file);
    await syncDir(this.dir);
    return name;
  }

  /**
   * Reads blob `sha` into `into` (as long as the file must be), hashing as it comes: the SHA-256
   * of `prefix` then the file's bytes must be `sha` (a result's file holds its payload, and its
   * id hashes its header first). 'missing' when the file is not there or not that long;
   * 'damaged' when its bytes are not the ones named: the file is then moved aside
   * (`<sha>.damaged`, out of every listing), so the blob reads as gone from then on and the
   * same bytes can be written whole again.
   */
  async readChecked(sha: string, into: Uint8Array, prefix = ''): Promise<'whole' | 'missing' | 'damaged'> {
    let handle: FileHandle;
    try {
      handle = await open(this.path(sha), 'r');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'missing';
      throw error;
    }
    const hash = createHash('sha256').update(prefix);
    try {
      if ((await handle.stat()).size !== into.byteLength) return 'missing';
      for (let at = 0; at < into.byteLength; ) {
        const { bytesRead } = await handle.read(into, at, Math.min(READ_SLICE, into.byteLength - at), at);
        if (bytesRead === 0) return 'missing';
        hash.update(into.subarray(at, at + bytesRead));
        at += bytesRead;
      }
    } finally {
      await handle.close();
    }
    if (hash.digest('hex') === sha) return 'whole';
    await rename(this.path(sha), `${this.path(sha)}.damaged`).catch(() => {});
    return 'damaged';
  }

  async read(sha: string): Promise<Buffer | null> {
    try {
      return await readFile(this.path(sha));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }

  async size(sha: string): Promise<number | null> {
    return stat(this.path(sha)).then((s) => s.size, () => null);
  }

  async remove(sha: string): Promise<void> {
    await rm(this.path(sha), { force: true });
  }

  /** Every blob's name. */
  async names(): Promise<string[]> {
    return (await readdir(this.dir)).filter((name) => NAME.test(name));
  }

  /** Drops temporary files a stopped host left half written. */
  async clearTemporary(): Promise<void> {
    for (const name of await readdir(this.#tmp)) await rm(path.join(this.#tmp, name), { force: true });
  }
}

/** Writes all of `part`: a write may take fewer bytes than given (a file-size limit reached), and the next one says why. */
async function writeWhole(handle: FileHandle, part: Uint8Array): Promise<void> {
  for (let done = 0; done < part.byteLength; ) {
    const { bytesWritten } = await handle.write(part, done, part.byteLength - done);
    if (bytesWritten === 0) throw Object.assign(new Error('no space left to write the blob'), { code: 'ENOSPC' });
    done += bytesWritten;
  }
}

/** Flushes a folder's entries (a new name in it) to disk. */
async function syncDir(dir: string): Promise<void> {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
