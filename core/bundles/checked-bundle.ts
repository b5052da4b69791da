/**
 * @module checked-bundle
 * Reads a bundle folder once and checks it: the manifest's bytes (whose SHA-256 is the
 * bundle id) and every file it lists, each against its SHA-256. A file that is missing, cut
 * short or half copied is named, so a reload that meets a bundle still being
 * copied in leaves it out instead of loading half of it. What is checked is kept in memory
 * and is exactly what a kept copy is written from: nothing is read twice.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { isSafeRelativePath } from '../catalog/safe-path.ts';

export interface CheckedBundle {
  /** The folder it was read from. */
  dir: string;
  manifestBytes: Buffer;
  manifest: unknown;
  /** SHA-256 (hex) of manifest.json as written. */
  bundleId: string;
  /** Each listed file's checked bytes; null for a manifest that lists none (written by hand). */
  files: Map<string, Buffer> | null;
  /** manifest.sig beside it, if any (what `vitrine sign` wrote). */
  signature: Buffer | null;
  /** The first listed file that is missing or does not match, said in a sentence; null when all match. */
  mismatch: string | null;
}

export const SIGNATURE_FILE = 'manifest.sig';

const sha256 = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex');

async function readOptional(file: string): Promise<Buffer | null> {
  try {
    return await readFile(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

async function checkFile(dir: string, name: string, expected: unknown): Promise<Buffer> {
  if (!isSafeRelativePath(name) || typeof expected !== 'string') throw new Error(`manifest lists file ${JSON.stringify(name)} malformed`);
  const bytes = await readOptional(path.join(dir, ...name.split('/')));
  if (bytes === null) throw new Error(`file ${name} is missing (the bundle is not completely copied)`);
  if (sha256(bytes) !== expected.toLowerCase())
    throw new Error(`file ${name} does not match its SHA-256 in manifest.json (${bytes.length} bytes: truncated, half copied or edited)`);
  return bytes;
}

/** Reads and checks `dir`; a file that does not match is named in `mismatch`, an unreadable manifest throws. */
export async function readCheckedBundle(dir: string): Promise<CheckedBundle> {
  const manifestBytes = await readFile(path.join(dir, 'manifest.json'));
  let manifest: unknown;
  try {
    manifest = JSON.parse(manifestBytes.toString('utf8'));
  } catch (error) {
    throw new Error(`file manifest.json is not JSON (${(error as Error).message}): truncated or half copied?`);
  }
  const listed = (manifest as { files?: unknown } | null)?.files;
  let files: Map<string, Buffer> | null = null;
  let mismatch: string | null = null;
  if (listed !== undefined) {
    if (!listed || typeof listed !== 'object' || Array.isArray(listed)) throw new Error('manifest "files" is not an object of SHA-256 hashes');
    const entries = Object.entries(listed as Record<string, unknown>);
    files = new Map();
    for (const [name, hash] of entries) {
      try {
        files.set(name, await checkFile(dir, name, hash));
      } catch (error) {
        mismatch ??= (error as Error).message;
      }
    }
  }
  const signature = await readOptional(path.join(dir, SIGNATURE_FILE));
  return { dir, manifestBytes, manifest, bundleId: sha256(manifestBytes), files, signature, mismatch };
}
