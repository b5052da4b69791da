/**
 * @module file-result
 * A result whose bytes lie in a file rather than in memory (a session file taken in, spooled to
 * disk as it arrived): its id, its frame header, and where its payload lies. A store that can
 * take bytes from a file keeps it without reading it into memory (blobs/disk-blob-store.ts);
 * any other has it read in, one result at a time (`loadFileResult`), into shared memory as
 * every held result lives.
 */
import { open } from 'node:fs/promises';
import { decodeResultFrame, type ResultHeader } from './result-frame.ts';
import { rememberResultId } from './result-id.ts';
import type { StoredResult } from './stored-result.ts';

export interface FileResult {
  /** The result id: the SHA-256 of the header's JSON then the payload, checked when the file was read. */
  id: string;
  header: ResultHeader;
  /** The file, and the payload's first byte and length in it (`header.byteLength`). */
  file: string;
  offset: number;
}

/** Bytes read at a time: a few milliseconds of work between two turns of the event loop. */
export const FILE_SLICE = 8 * 1024 * 1024;

/** Reads `length` bytes of `file` from `offset` into `into`, a slice at a time. */
export async function readRange(file: string, offset: number, into: Uint8Array): Promise<void> {
  const handle = await open(file, 'r');
  try {
    for (let at = 0; at < into.byteLength; ) {
      const { bytesRead } = await handle.read(into, at, Math.min(FILE_SLICE, into.byteLength - at), offset + at);
      if (bytesRead === 0) throw new Error(`${file} ends before byte ${offset + into.byteLength}`);
      at += bytesRead;
    }
  } finally {
    await handle.close();
  }
}

/** The result `result` names, read into shared memory and known by its id. */
export async function loadFileResult(result: FileResult): Promise<StoredResult> {
  const payload = new SharedArrayBuffer(result.header.byteLength);
  await readRange(result.file, result.offset, new Uint8Array(payload));
  const stored = decodeResultFrame(result.header, payload as unknown as ArrayBuffer);
  rememberResultId(stored, result.id);
  return stored;
}
