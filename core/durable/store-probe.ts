/**
 * @module store-probe
 * Reads the whole store in a process of its own before the host opens it. LMDB maps the file
 * and trusts its pages: a page damaged on disk can end the reading process with a bus error or
 * a segmentation fault instead of an error, so the host lets a throwaway process take that
 * risk (every database, every record) and refuses the folder when that process fails.
 */
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

/** The probe: opens the store read-only and reads every record of every named database. */
const PROBE = `
const { open } = await import(process.argv[1]);
const env = open({ path: process.argv[2], readOnly: true, maxDbs: 64 });
let records = 0;
// The names first: opening a database while the root is being walked ends that walk's transaction.
const names = [...env.getKeys()];
for (const name of names) {
  if (typeof name !== 'string') continue;
  // Raw bytes: every page is read as the host would, without decoding a value it will decode itself.
  const db = env.openDB({ name, encoding: 'binary' });
  for (const entry of db.getRange()) records += entry.value === undefined ? 0 : 1;
}
process.stdout.write(String(records));
`;

/**
 * Null when every record of `file` reads, or the probe failed with an error (the host's own
 * open then reports it); else how reading it ended the process.
 */
export function probeStore(file: string): Promise<string | null> {
  const lmdb = pathToFileURL(createRequire(import.meta.url).resolve('lmdb')).href;
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', PROBE, lmdb, file], { stdio: ['ignore', 'pipe', 'pipe'] });
    child.stderr.resume();
    child.stdout.resume();
    child.once('error', () => resolve(null));
    // Only a crash is the probe's verdict: an error is one the host's own open meets and names.
    child.once('exit', (_code, signal) => resolve(signal ? `reading it ended the reading process with ${signal}` : null));
  });
}
