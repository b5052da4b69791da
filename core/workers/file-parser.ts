/**
 * @module file-parser
 * Parses files on the encode thread, never on the event loop: decoding a large or hostile
 * file (an image that inflates to gigabytes, a long OBJ) takes seconds of CPU and must not
 * hold up the requests the host is answering meanwhile (`/healthz` above all). The file's
 * decoded size is checked there first (decoded-size.ts), so a file past the limit is refused
 * before any of it is decoded. The bytes cross to the thread without a copy: shared memory
 * as it is, a buffer of its own by transfer. Annotation imports (CSV, JSON lists) are read there too.
 */
import type Tinypool from 'tinypool';
import type { StoredResult } from '../results/stored-result.ts';
import type { ParseFileTask } from './protocol.ts';
import { runTask } from './task-pool.ts';
import { draftsOf, type ReadImport } from '../annotations/parse-import.ts';
import { DecodedSizeError } from '../formats/decoded-size.ts';
import { FormatError } from '../formats/format-error.ts';
import type { VolumeGeometryHint } from '../formats/npy/parse-npy.ts';

export interface ParseOptions {
  geometry?: VolumeGeometryHint;
  /** Refuse files that would decode past this many bytes. @defaultValue Infinity */
  maxDecodedBytes?: number;
}

/** What parses a file: off the event loop in a host, inline where there is no pool. */
export type ParseFn = (bytes: Buffer, fileName: string, options?: ParseOptions) => Promise<StoredResult>;

function ownsItsMemory(bytes: Buffer): boolean {
  return bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength && bytes.buffer instanceof ArrayBuffer;
}

export class FileParser {
  #pool: Tinypool;

  constructor(pool: Tinypool) {
    this.#pool = pool;
  }

  /**
   * Parses `bytes` by the extension of `fileName`. A buffer not in shared memory that owns its
   * memory is handed to the thread (the caller must not use it again); any other is copied.
   * @throws FormatError or DecodedSizeError, as parseCheckedFile does.
   */
  readonly parse: ParseFn = async (bytes, fileName, options = {}) => {
    let view = new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const transfer = !(bytes.buffer instanceof SharedArrayBuffer) && ownsItsMemory(bytes);
    if (!(bytes.buffer instanceof SharedArrayBuffer) && !transfer) {
      view = new Uint8Array(new SharedArrayBuffer(bytes.byteLength));
      view.set(bytes);
    }
    const task: ParseFileTask = {
      op: 'parseFile',
      bytes: view,
      fileName,
      geometry: options.geometry ?? {},
      maxDecodedBytes: options.maxDecodedBytes ?? Infinity,
    };
    const outcome = await runTask(this.#pool, task, transfer ? { transferList: [view.buffer as ArrayBuffer] } : {});
    if (outcome.ok) return outcome.result;
    if (outcome.kind === 'size') throw new DecodedSizeError(outcome.size, outcome.limit);
    throw new FormatError(outcome.message);
  };

  /**
   * An annotation import (CSV or a JSON list) read and checked on the thread, refused past `max`
   * annotations. Bytes in shared memory cross as they are; bytes that own their whole buffer
   * (a body read whole) are handed to the thread, not copied: a 16 MiB copy held the event
   * loop; the caller must not use them after.
   */
  async parseAnnotations(kind: 'csv' | 'json', text: string | Uint8Array, max: number): Promise<ReadImport> {
    const own = typeof text !== 'string' && text.buffer instanceof ArrayBuffer && text.byteOffset === 0 && text.byteLength === text.buffer.byteLength;
    const options = own ? { transferList: [text.buffer as ArrayBuffer] } : {};
    return draftsOf(await runTask(this.#pool, { op: 'parseImport', kind, text, max }, options));
  }
}
