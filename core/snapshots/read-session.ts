/**
 * @module read-session
 * A session file taken in, read where it lies on disk (spooled there as it arrived, so no copy
 * of it is held in memory): its archive listed from its headers, its manifest and document read
 * (the document checked against the snapshot id, then as a snapshot document, by its own
 * module), and each result a layer shows hashed from the file a slice at a time (a turn of the
 * event loop between slices) against the id it is named by. The results stay in the file
 * (`FileResult`) for the snapshot's pins to take. The published files it carries are checked
 * the same way (each against the `sha` its header gives, each a specimen the document names) and
 * left in the file too, for the host to publish. Every refusal is a catalogued 400 naming the
 * part of the file at fault.
 */
import { createHash } from 'node:crypto';
import { open, type FileHandle } from 'node:fs/promises';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { createHostError } from '../errors.ts';
import { FormatError } from '../formats/format-error.ts';
import { indexTarFile, looksLikeTarFile, type TarFileEntry } from '../formats/tar/index-tar-file.ts';
import { FILE_SLICE, type FileResult } from '../results/file-result.ts';
import { checkResultHeader } from '../results/result-frame.ts';
import type { SnapshotDocument } from '../wire/snapshot-types.ts';
import { readSnapshotDocument } from './check-snapshot-document.ts';
import { specimensOfScene } from '../scenes/scene-names.ts';
import {
  DOCUMENT_NAME,
  MANIFEST_NAME,
  namedResults,
  RESULTS_DIR,
  SESSION_FORMAT,
  SESSION_VERSION,
  SPECIMENS_DIR,
  type SessionManifest,
  type SessionSpecimenFile,
} from './session-layout.ts';
import { isRecord } from '../wire/json-object.ts';

/** A session as read: the snapshot's id, document (its text, and checked) and time taken, and its results where they lie. */
export interface ReadSession {
  id: string;
  json: string;
  document: SnapshotDocument;
  created: number;
  results: FileResult[];
  /** The published files it carries (none in a file written before they were carried). */
  specimens: SessionSpecimenFile[];
}

/** The most bytes a manifest or a result's header line may take. */
const MAX_HEAD_BYTES = 64 * 1024;

const invalid = (why: string) => createHostError('SPC_ERR_SESSION_INVALID', why);

/** What `read` gives; when it throws, the session is refused saying `what` and why. */
async function orInvalid<T>(read: () => T | Promise<T>, what: string): Promise<T> {
  try {
    return await read();
  } catch (error) {
    throw invalid(`${what}: ${(error as Error).message}`);
  }
}

/** `name`'s head: the JSON line before its first newline, read, and where the bytes after it start. */
async function headOf(archive: Archive, name: string, entry: TarFileEntry): Promise<{ json: unknown; bytes: Buffer; offset: number; length: number }> {
  const head = await bytesAt(archive, entry.offset, Math.min(entry.size, MAX_HEAD_BYTES));
  const newline = head.indexOf(0x0a);
  if (newline < 0) throw invalid(`'${name}' has no header line`);
  const bytes = head.subarray(0, newline);
  const json: unknown = await orInvalid(() => JSON.parse(bytes.toString('utf8')), `'${name}' has a header that is not JSON`);
  return { json, bytes, offset: entry.offset + newline + 1, length: entry.size - newline - 1 };
}

/** The archive open for reading, with its entries by name. */
interface Archive {
  handle: FileHandle;
  file: string;
  entries: Map<string, TarFileEntry>;
}

/** `length` bytes of the archive from `offset`. */
async function bytesAt(archive: Archive, offset: number, length: number): Promise<Buffer> {
  const bytes = Buffer.allocUnsafe(length);
  for (let at = 0; at < length; ) {
    const { bytesRead } = await archive.handle.read(bytes, at, Math.min(FILE_SLICE, length - at), offset + at);
    if (bytesRead === 0) throw invalid(`it ends before byte ${offset + length}`);
    at += bytesRead;
  }
  return bytes;
}

/** The SHA-256 (hex) of `head` then `length` bytes of the archive from `offset`, a slice at a time. */
async function sha256Of(archive: Archive, head: Uint8Array, offset: number, length: number): Promise<string> {
  const hash = createHash('sha256').update(head);
  const slice = Buffer.allocUnsafe(Math.min(FILE_SLICE, Math.max(1, length)));
  for (let at = 0; at < length; ) {
    if (at > 0) await nextTurn();
    const { bytesRead } = await archive.handle.read(slice, 0, Math.min(slice.length, length - at), offset + at);
    if (bytesRead === 0) throw invalid(`it ends before byte ${offset + length}`);
    hash.update(slice.subarray(0, bytesRead));
    at += bytesRead;
  }
  return hash.digest('hex');
}

async function manifestOf(archive: Archive): Promise<SessionManifest> {
  const entry = archive.entries.get(MANIFEST_NAME);
  if (!entry) throw invalid(`it holds no '${MANIFEST_NAME}' (is it a .vitrine file?)`);
  if (entry.size > MAX_HEAD_BYTES) throw invalid(`'${MANIFEST_NAME}' takes ${entry.size} bytes, more than a manifest does`);
  const read = async () => JSON.parse((await bytesAt(archive, entry.offset, entry.size)).toString('utf8')) as Partial<SessionManifest>;
  const manifest = await orInvalid(read, `'${MANIFEST_NAME}' is not JSON`);
  if (manifest?.format !== SESSION_FORMAT) throw invalid(`'${MANIFEST_NAME}' does not say "format": "${SESSION_FORMAT}"`);
  if (manifest.version !== SESSION_VERSION)
    throw invalid(`it is of format version ${String(manifest.version)}, and this host reads version ${SESSION_VERSION} (a newer vitrine wrote it?)`);
  if (typeof manifest.snapshot !== 'string' || !/^[0-9a-f]{64}$/.test(manifest.snapshot)) throw invalid(`'${MANIFEST_NAME}' names no snapshot id`);
  if (!Number.isSafeInteger(manifest.created) || manifest.created! < 0) throw invalid(`'${MANIFEST_NAME}' gives no time the snapshot was taken`);
  return manifest as SessionManifest;
}

/** The document's text, and what it holds, once its bytes hash to `id` and it checks as a snapshot document. */
async function documentOf(archive: Archive, id: string): Promise<{ json: string; document: SnapshotDocument }> {
  const entry = archive.entries.get(DOCUMENT_NAME);
  if (!entry) throw invalid(`it holds no '${DOCUMENT_NAME}'`);
  const hash = await sha256Of(archive, new Uint8Array(0), entry.offset, entry.size);
  if (hash !== id) throw createHostError('SPC_ERR_SESSION_MISMATCH', DOCUMENT_NAME, `its SHA-256 is ${hash}, not the snapshot id ${id}`);
  const json = (await bytesAt(archive, entry.offset, entry.size)).toString('utf8');
  // Its hash says only that it is the file's own; what it holds is checked as any snapshot is.
  return { json, document: readSnapshotDocument(json, DOCUMENT_NAME) };
}

/** Result `id` where it lies in the archive, once its header line reads and its bytes hash to its name. */
async function resultOf(archive: Archive, id: string): Promise<FileResult> {
  const name = `${RESULTS_DIR}${id}`;
  const entry = archive.entries.get(name);
  if (!entry) throw invalid(`it holds no '${name}', which a layer of the snapshot shows`);
  const { json, bytes, offset, length } = await headOf(archive, name, entry);
  const header = await orInvalid(() => checkResultHeader(json), `'${name}' has a malformed result header`);
  if (length !== header.byteLength) throw invalid(`'${name}' holds ${length} payload bytes where its header says ${header.byteLength}`);
  const hash = await sha256Of(archive, bytes, offset, length);
  if (hash !== id) throw createHostError('SPC_ERR_SESSION_MISMATCH', name, `its SHA-256 is ${hash}`);
  return { id, header, file: archive.file, offset };
}

/**
 * Each published file the archive carries, once its header names a specimen the document
 * names (once) and a `sha` its bytes hash to. What each header says beyond that is checked as
 * a publish's fields are, when the host publishes it.
 */
async function specimensOf(archive: Archive, named: ReadonlySet<string>): Promise<SessionSpecimenFile[]> {
  const carried = new Map<string, SessionSpecimenFile>();
  for (const [name, entry] of archive.entries) {
    if (!name.startsWith(SPECIMENS_DIR)) continue;
    const { json, offset, length } = await headOf(archive, name, entry);
    const header = isRecord(json) ? json : {};
    const id = header.id;
    if (typeof id !== 'string' || !named.has(id)) throw invalid(`'${name}' carries a specimen no layer of the snapshot names`);
    if (carried.has(id)) throw invalid(`'${name}' carries specimen '${id}' a second time`);
    if (typeof header.sha !== 'string' || !/^[0-9a-f]{64}$/.test(header.sha)) throw invalid(`'${name}' gives no 'sha' of its file`);
    const hash = await sha256Of(archive, new Uint8Array(0), offset, length);
    if (hash !== header.sha) throw createHostError('SPC_ERR_SESSION_MISMATCH', name, `its file's SHA-256 is ${hash}, not the 'sha' ${header.sha} it gives`);
    carried.set(id, { id, header, sha: hash, file: archive.file, offset, length });
  }
  return [...carried.values()];
}

/** Reads and checks the session file at `file`. @throws SPC_ERR_SESSION_INVALID or SPC_ERR_SESSION_MISMATCH naming what is at fault. */
export async function readSessionFile(file: string): Promise<ReadSession> {
  const handle = await open(file, 'r');
  try {
    const { size } = await handle.stat();
    if (!(await looksLikeTarFile(handle))) throw invalid(`the body (${size} bytes) is not a tar archive`);
    let list: TarFileEntry[];
    try {
      list = await indexTarFile(handle, size);
    } catch (error) {
      if (error instanceof FormatError) throw invalid(error.message);
      throw error;
    }
    const archive: Archive = { handle, file, entries: new Map(list.map((entry) => [entry.name, entry])) };
    const manifest = await manifestOf(archive);
    const { json, document } = await documentOf(archive, manifest.snapshot);
    const results: FileResult[] = [];
    for (const id of namedResults(document)) results.push(await resultOf(archive, id));
    const specimens = await specimensOf(archive, specimensOfScene(document.scene));
    return { id: manifest.snapshot, json, document, created: manifest.created, results, specimens };
  } finally {
    await handle.close();
  }
}
