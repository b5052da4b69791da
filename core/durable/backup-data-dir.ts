/**
 * @module backup-data-dir
 * A consistent copy of a data folder, taken while its host runs: the store copied by LMDB
 * inside one read transaction (every write committed before it, none after), then the files
 * of bytes that the copy names, each copied whole. Bytes are always written before a record
 * names them, so every name in the copy has its file; one removed meanwhile (a specimen
 * deleted after the copy was taken) is counted as missing. Then the plugin versions the host
 * keeps (`bundles/`: one folder per bundle id, each renamed into place whole, and the index
 * of which ones each plugin keeps), so a host restored from the copy still computes layers
 * pinned to an older version. Users and their tokens are records of the store.
 */
import { copyFile, cp, mkdir, readdir } from 'node:fs/promises';
import path from 'node:path';
import { open, type RootDatabase } from 'lmdb';
import { BlobFolder } from './blob-folder.ts';
import { STORE_FILE } from './data-store.ts';
import { BUNDLES_DIR, DISK } from './disk-keys.ts';
import { storeFileProblem } from './store-file-check.ts';

export interface BackupSummary {
  /** Files of bytes copied. */
  blobs: number;
  /** Names in the copy whose file was gone by the time it was copied. */
  missing: number;
  /** Kept plugin versions (bundle folders) copied. */
  bundles: number;
}

/**
 * Copies the kept bundles of `from` into `to`: the index first, then every bundle folder (a
 * folder being written has a hidden name until it is whole, and is left out).
 */
async function copyBundles(from: string, to: string): Promise<number> {
  const source = path.join(from, BUNDLES_DIR);
  const entries = await readdir(source, { withFileTypes: true }).catch(() => []);
  if (entries.length === 0) return 0;
  await mkdir(path.join(to, BUNDLES_DIR), { recursive: true });
  let copied = 0;
  for (const entry of entries.filter((e) => !e.name.startsWith('.')).sort((a, b) => Number(b.isFile()) - Number(a.isFile()))) {
    // Removed meanwhile (a version no longer kept): the index copied before it no longer needs it either way.
    const done = await cp(path.join(source, entry.name), path.join(to, BUNDLES_DIR, entry.name), { recursive: true }).then(
      () => true,
      () => false,
    );
    if (done && entry.isDirectory()) copied++;
  }
  return copied;
}

/** The records of database `name` (none when the store never made it). */
function recordsOf(env: RootDatabase, name: string): { key: unknown; value: unknown }[] {
  const names = new Set(env.getKeys());
  return names.has(name) ? [...env.openDB({ name }).getRange()] : [];
}

/** The blob names the store holds records for: results kept by id, and published files. */
function namedBlobs(env: RootDatabase): Set<string> {
  const names = new Set<string>();
  for (const { key } of recordsOf(env, DISK.blobs.name)) if (typeof key === 'string') names.add(key);
  for (const { value } of recordsOf(env, DISK.published.name)) {
    const sha = (value as { sha?: unknown } | null)?.sha;
    if (typeof sha === 'string') names.add(sha);
  }
  return names;
}

/** Copies the data folder `from` into `to` (a folder that must be new or empty). */
export async function backupDataDir(from: string, to: string): Promise<BackupSummary> {
  const source = path.join(from, STORE_FILE);
  const problem = storeFileProblem(source);
  if (problem) throw new Error(`the store ${source} cannot be copied: ${problem}`);
  await mkdir(to, { recursive: true });
  if ((await readdir(to)).length > 0) throw new Error(`${to} is not empty: a backup goes into a new folder`);
  const env = open({ path: source, readOnly: true, maxDbs: 64, overlappingSync: false });
  try {
    await env.backup(path.join(to, STORE_FILE), false);
  } finally {
    await env.close();
  }
  const copy = open({ path: path.join(to, STORE_FILE), readOnly: true, maxDbs: 64, overlappingSync: false });
  let names: Set<string>;
  try {
    names = namedBlobs(copy);
  } finally {
    await copy.close();
  }
  const sourceBlobs = new BlobFolder(from);
  const targetBlobs = new BlobFolder(to);
  const summary: BackupSummary = { blobs: 0, missing: 0, bundles: 0 };
  for (const name of names) {
    if (!sourceBlobs.has(name)) {
      summary.missing++;
      continue;
    }
    await copyFile(sourceBlobs.path(name), targetBlobs.path(name));
    summary.blobs++;
  }
  summary.bundles = await copyBundles(from, to);
  return summary;
}
