/**
 * @module read-session
 * A session file taken in: its archive read, its document checked against the snapshot id,
 * and each result a layer shows checked against the id it is named by, then laid in shared
 * memory as every held result is. Hashing goes a slice at a time with a turn of the event loop
 * between slices, so a large file never holds up other requests for long. Every refusal is a
 * catalogued 400 naming the part of the file at fault.
 */
import { createHash } from 'node:crypto';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { createHostError } from '../errors.ts';
import { FormatError } from '../formats/format-error.ts';
import { readTar, type TarEntry } from '../formats/tar/read-tar.ts';
import { checkResultHeader, decodeResultFrame, type ResultHeader } from '../results/result-frame.ts';
import { readSnapshotDocument } from './check-snapshot-document.ts';
import { rememberResultId } from '../results/result-id.ts';
import type { StoredResult } from '../results/stored-result.ts';
import { DOCUMENT_NAME, MANIFEST_NAME, namedResults, RESULTS_DIR, SESSION_FORMAT, SESSION_VERSION, type SessionManifest } from './session-layout.ts';

/** Bytes hashed or copied between two turns of the event loop (a few milliseconds of work). */
const HASH_SLICE = 8 * 1024 * 1024;

/** A session as read: the snapshot's id, document and time taken, and its results by id. */
export interface ReadSession {
  id: string;
  json: string;
  created: number;
  results: Map<string, StoredResult>;
}

const invalid = (why: string) => createHostError('SPC_ERR_SESSION_INVALID', why);

/** The SHA-256 (hex) of `parts` one after another, yielding between slices. */
async function sha256Of(parts: readonly Uint8Array[]): Promise<string> {
  const hash = createHash('sha256');
  for (const part of parts) {
    for (let at = 0; at < part.length; at += HASH_SLICE) {
      if (at > 0) await nextTurn();
      hash.update(part.subarray(at, at + HASH_SLICE));
    }
  }
  return hash.digest('hex');
}

/**
 * `bytes` copied into shared memory (where held results keep their arrays, so worker threads
 * read them without a copy), a slice at a time like the hashing.
 */
async function sharedCopy(bytes: Uint8Array): Promise<SharedArrayBuffer> {
  const shared = new SharedArrayBuffer(bytes.length);
  const into = new Uint8Array(shared);
  for (let at = 0; at < bytes.length; at += HASH_SLICE) {
    if (at > 0) await nextTurn();
    into.set(bytes.subarray(at, at + HASH_SLICE), at);
  }
  return shared;
}

function manifestOf(entries: Map<string, Uint8Array>): SessionManifest {
  const bytes = entries.get(MANIFEST_NAME);
  if (!bytes) throw invalid(`it holds no '${MANIFEST_NAME}' (is it a .vitrine file?)`);
  let manifest: Partial<SessionManifest>;
  try {
    manifest = JSON.parse(Buffer.from(bytes).toString('utf8')) as Partial<SessionManifest>;
  } catch (error) {
    throw invalid(`'${MANIFEST_NAME}' is not JSON: ${(error as Error).message}`);
  }
  if (manifest?.format !== SESSION_FORMAT) throw invalid(`'${MANIFEST_NAME}' does not say "format": "${SESSION_FORMAT}"`);
  if (manifest.version !== SESSION_VERSION)
    throw invalid(`it is of format version ${String(manifest.version)}, and this host reads version ${SESSION_VERSION} (a newer vitrine wrote it?)`);
  if (typeof manifest.snapshot !== 'string' || !/^[0-9a-f]{64}$/.test(manifest.snapshot)) throw invalid(`'${MANIFEST_NAME}' names no snapshot id`);
  if (!Number.isSafeInteger(manifest.created) || manifest.created! < 0) throw invalid(`'${MANIFEST_NAME}' gives no time the snapshot was taken`);
  return manifest as SessionManifest;
}

/** The document's text once its bytes hash to `id`. */
async function documentOf(entries: Map<string, Uint8Array>, id: string): Promise<{ json: string; document: object }> {
  const bytes = entries.get(DOCUMENT_NAME);
  if (!bytes) throw invalid(`it holds no '${DOCUMENT_NAME}'`);
  const hash = await sha256Of([bytes]);
  if (hash !== id) throw createHostError('SPC_ERR_SESSION_MISMATCH', DOCUMENT_NAME, `its SHA-256 is ${hash}, not the snapshot id ${id}`);
  const json = Buffer.from(bytes).toString('utf8');
  // Its hash says only that it is the file's own; what it holds is checked as any snapshot is.
  return { json, document: readSnapshotDocument(json, DOCUMENT_NAME) };
}

/** Splits a result's file into its header line and payload. */
function framed(name: string, bytes: Uint8Array): { headerBytes: Uint8Array; header: ResultHeader; payload: Uint8Array } {
  const newline = bytes.indexOf(0x0a);
  if (newline < 0) throw invalid(`'${name}' has no result header`);
  const headerBytes = bytes.subarray(0, newline);
  let header: ResultHeader;
  try {
    header = checkResultHeader(JSON.parse(Buffer.from(headerBytes).toString('utf8')));
  } catch (error) {
    throw invalid(`'${name}' has a malformed result header: ${(error as Error).message}`);
  }
  const payload = bytes.subarray(newline + 1);
  if (payload.length !== header.byteLength) throw invalid(`'${name}' holds ${payload.length} payload bytes where its header says ${header.byteLength}`);
  return { headerBytes, header, payload };
}

/** Result `id` read from its file, once its bytes hash to its name. */
async function resultOf(entries: Map<string, Uint8Array>, id: string): Promise<StoredResult> {
  const name = `${RESULTS_DIR}${id}`;
  const bytes = entries.get(name);
  if (!bytes) throw invalid(`it holds no '${name}', which a layer of the snapshot shows`);
  const { headerBytes, header, payload } = framed(name, bytes);
  const hash = await sha256Of([headerBytes, payload]);
  if (hash !== id) throw createHostError('SPC_ERR_SESSION_MISMATCH', name, `its SHA-256 is ${hash}`);
  const shared = await sharedCopy(payload);
  const result = decodeResultFrame(header, shared as unknown as ArrayBuffer);
  rememberResultId(result, id);
  return result;
}

/** Reads and checks session file `bytes`. @throws SPC_ERR_SESSION_INVALID or SPC_ERR_SESSION_MISMATCH naming what is at fault. */
export async function readSession(bytes: Uint8Array): Promise<ReadSession> {
  let list: TarEntry[];
  try {
    list = readTar(bytes);
  } catch (error) {
    if (error instanceof FormatError) throw invalid(error.message);
    throw error;
  }
  const entries = new Map(list.map((entry) => [entry.name, entry.data]));
  const manifest = manifestOf(entries);
  const { json, document } = await documentOf(entries, manifest.snapshot);
  const results = new Map<string, StoredResult>();
  for (const id of namedResults(document)) results.set(id, await resultOf(entries, id));
  return { id: manifest.snapshot, json, created: manifest.created, results };
}
