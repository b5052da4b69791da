/**
 * @module store-file-check
 * A look at the store file before the engine opens it: LMDB trusts its two meta pages, and a
 * file that is not one (overwritten, truncated, another program's) can crash the process
 * inside the engine rather than fail. Each meta page must carry LMDB's magic number, the
 * second one page size after the first. And a store file gone from a folder that held one
 * (its bytes still there, or the engine's lock file beside where it was): the records that
 * name those bytes are gone with it, and a store made new there would hide that (unless it was
 * moved aside as a damaged store is told to be: then starting afresh is the operator's choice).
 * Then the whole store read in a process of its own before the host opens it: LMDB maps the
 * file and trusts its pages, so a page damaged on disk can end the reading process with a bus
 * error or a segmentation fault instead of an error; the host lets a throwaway process take that
 * risk (every database, every record) and refuses the folder when that process fails. Each
 * record is decoded as the host decodes it, so a record damaged past the meta pages is found
 * here, named by its database, rather than met by whichever store reads it first.
 */
import { spawn } from 'node:child_process';
import { closeSync, existsSync, openSync, readdirSync, readSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const MAGIC = 0xbeefc0de;
/** Where the magic number and the page size sit in a meta page (after the 16-byte page header). */
const MAGIC_AT = 24;
const PAGE_SIZE_AT = 48;

/** Null when `file` is absent, empty or looks like a store; else what is wrong with it. */
export function storeFileProblem(file: string): string | null {
  let size: number;
  try {
    size = statSync(file).size;
  } catch {
    return null;
  }
  if (size === 0) return null;
  const fd = openSync(file, 'r');
  try {
    const head = Buffer.alloc(64);
    if (readSync(fd, head, 0, 64, 0) < 64 || head.readUInt32LE(MAGIC_AT) !== MAGIC) return 'its first meta page is not an LMDB one';
    const pageSize = head.readUInt32LE(PAGE_SIZE_AT);
    if (pageSize < 512 || pageSize > 65536 || (pageSize & (pageSize - 1)) !== 0) return `its page size ${pageSize} is not one LMDB writes`;
    if (size < 2 * pageSize) return `it is ${size} bytes, shorter than its two meta pages`;
    const second = Buffer.alloc(4);
    readSync(fd, second, 0, 4, pageSize + MAGIC_AT);
    return second.readUInt32LE(0) === MAGIC ? null : 'its second meta page is not an LMDB one';
  } finally {
    closeSync(fd);
  }
}

/** A blob's file name in the folder of bytes. */
const BLOB_NAME = /^[0-9a-f]{64}$/;

/**
 * Null when the store file `file` is there or the folder `dir` never held one; else what shows
 * that it did (the folder's bytes, the engine's lock file), for the refusal.
 */
export function missingStoreProblem(dir: string, file: string): string | null {
  // A store moved aside as a damaged one is told to be (`.damaged`) was let go on purpose.
  if (existsSync(file) || existsSync(`${file}.damaged`)) return null;
  const signs: string[] = [];
  const blobs = path.join(dir, 'blobs');
  const count = existsSync(blobs) ? readdirSync(blobs).filter((name) => BLOB_NAME.test(name)).length : 0;
  if (count > 0) signs.push(`${count} file${count === 1 ? '' : 's'} of bytes in ${blobs}`);
  if (existsSync(`${file}-lock`)) signs.push(`its lock file ${file}-lock`);
  return signs.length === 0 ? null : signs.join(' and ');
}

/** What a folder that lost its store file is told with: what is left, and the two ways on. */
export function missingStore(dir: string, file: string, left: string): Error {
  return new Error(
    `the data dir ${dir} held a store, and its store file ${file} is gone (${left} still there): what people made there ` +
      `(rooms, marks, snapshots, published specimens, users) is not in it, and the host will not start empty beside it. Put the store file back ` +
      `(from a backup: vitrine serve --data-dir BACKUP serves one as it was), or move the folder aside to start afresh (mv '${dir}' '${dir}.orphaned')`,
  );
}

/**
 * The probe: opens the store read-only and reads and decodes every record of every named
 * database; it writes the first record that does not decode, or nothing.
 */
const PROBE = `
const { open } = await import(process.argv[1]);
const env = open({ path: process.argv[2], readOnly: true, maxDbs: 64 });
// The names first: opening a database while the root is being walked ends that walk's transaction.
const names = [...env.getKeys()];
for (const name of names) {
  if (typeof name !== 'string') continue;
  const db = env.openDB({ name });
  let bad = null;
  for (const key of db.getKeys()) {
    try {
      db.get(key);
    } catch (error) {
      bad = 'its record ' + JSON.stringify(key) + ' of database ' + JSON.stringify(name) + ' does not decode';
      break;
    }
  }
  if (bad) {
    process.stdout.write(bad);
    break;
  }
}
`;

/**
 * Null when every record of `file` reads and decodes, or the probe failed with an error (the
 * host's own open then reports it); else which record does not decode, or how reading it ended
 * the process.
 */
export function probeStore(file: string): Promise<string | null> {
  const lmdb = pathToFileURL(createRequire(import.meta.url).resolve('lmdb')).href;
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', PROBE, lmdb, file], { stdio: ['ignore', 'pipe', 'pipe'] });
    child.stderr.resume();
    let said = '';
    child.stdout.setEncoding('utf8').on('data', (text: string) => (said += text));
    child.once('error', () => resolve(null));
    // A crash or a record that does not decode is the probe's verdict; another error is one the host's own open meets and names.
    child.once('close', (_code, signal) => resolve(signal ? `reading it ended the reading process with ${signal}` : said.trim() || null));
  });
}
