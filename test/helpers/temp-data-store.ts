/**
 * @module temp-data-store
 * A data folder of a test's own (a temporary folder with its store open), for the disk homes'
 * conformance cases; closed and removed when the test file ends. `reopen` closes a store and
 * opens its folder again, as a restarted host does.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openDataStore, type DataStore } from '../../core/durable/data-store.ts';
import { atFileEnd } from './file-end.ts';

const open = new Set<DataStore>();
const dirs: string[] = [];

/** A fresh temporary folder (removed when the file ends). */
export function tempDataDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'vitrine-store-'));
  dirs.push(dir);
  return dir;
}

export async function openTempDataStore(dir = tempDataDir()): Promise<DataStore> {
  const store = await openDataStore(dir);
  open.add(store);
  return store;
}

/** Closes `store` and opens its folder again. */
export async function reopenDataStore(store: DataStore): Promise<DataStore> {
  open.delete(store);
  await store.close();
  return openTempDataStore(store.dir);
}

atFileEnd(async () => {
  for (const store of [...open]) await store.close();
  open.clear();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
