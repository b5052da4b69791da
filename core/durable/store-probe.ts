/**
 * @module store-probe
 * Reads the whole store in a process of its own before the host opens it. LMDB maps the file
 * and trusts its pages: a page damaged on disk can end the reading process with a bus error or
 * a segmentation fault instead of an error, so the host lets a throwaway process take that
 * risk (every database, every record) and refuses the folder when that process fails. Each
 * record is decoded as the host decodes it, so a record damaged past the meta pages is found
 * here, named by its database, rather than met by whichever store reads it first.
 */
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

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
