/**
 * @module static-inputs
 * Static specimens (files in the specimens directory, or a relayed worker's) read as input
 * results through the upload parsers (on the encode thread in a host). A few recent files are kept parsed, keyed by path, size
 * and modification time, so a file used again is not read again.
 */
import { readFile, stat } from 'node:fs/promises';
import type { SpecimenRecord } from '../catalog/specimen-record.ts';
import { createHostError } from '../errors.ts';
import type { ParseFn } from '../workers/file-parser.ts';
import { FormatError } from '../formats/format-error.ts';
import { parsedExtension } from '../formats/parse-file.ts';
import { parseCheckedFile } from '../results/parse-checked-file.ts';
import type { StoredResult } from '../results/stored-result.ts';

/** Parsed files kept. */
const KEPT = 4;

/**
 * Why a static record cannot be an input, or null when it can. A relayed worker's file is
 * known only once fetched, so it is checked then.
 */
export function unreadableStatic(record: SpecimenRecord): string | null {
  const data = record.data;
  if (!data) return 'has no data file';
  if (data.kind === 'remote' || parsedExtension(data.fileName)) return null;
  return `is a '${data.fileName}' file, which no parser reads`;
}

async function readBody(record: SpecimenRecord, signal: AbortSignal): Promise<{ bytes: Buffer; name: string }> {
  const data = record.data!;
  if (data.kind !== 'remote') return { bytes: await readFile(data.path, { signal }), name: data.fileName };
  const fetched = await data.fetch(signal);
  const name = fetched.fileName ?? '';
  if (Buffer.isBuffer(fetched.body)) return { bytes: fetched.body, name };
  const chunks: Buffer[] = [];
  for await (const chunk of fetched.body) chunks.push(chunk as Buffer);
  return { bytes: Buffer.concat(chunks), name };
}

/** Parses on the calling thread: for `vitrine/testing`, which has no pool. */
const parseInline: ParseFn = (bytes, name, options = {}) => parseCheckedFile(bytes, name, options.geometry, options.maxDecodedBytes);

export class StaticInputs {
  #kept = new Map<string, Promise<StoredResult>>();
  #parse: ParseFn;

  /** `parse`: a host's FileParser (off the event loop); inline by default. */
  constructor(parse: ParseFn = parseInline) {
    this.#parse = parse;
  }

  /** The parsed file of a static specimen. @throws SPC_ERR_SPECIMEN_FILE_INVALID when it does not parse. */
  async load(record: SpecimenRecord, signal: AbortSignal): Promise<StoredResult> {
    const data = record.data;
    if (!data) throw createHostError('SPC_ERR_SPECIMEN_NO_DATA', record.id);
    // A fetched file is told apart by where it comes from (an image read in place: which level).
    const fetched = () => `remote:${record.worker_id ?? ''}:${JSON.stringify(data.kind === 'remote' ? (data.origin?.() ?? null) : null)}`;
    const version = data.kind === 'remote' ? fetched() : await stat(data.path).then((s) => `${data.path}:${s.size}:${s.mtimeMs}`);
    const key = `${record.id}\u0000${version}`;
    let parsed = this.#kept.get(key);
    if (parsed) {
      this.#kept.delete(key);
    } else {
      const geometry = data.kind === 'npy' ? { spacing: data.spacing ?? null, origin: data.origin ?? null, ...data.described } : {};
      parsed = readBody(record, signal).then(({ bytes, name }) => this.#parse(bytes, name, { geometry }));
      parsed.catch(() => this.#kept.delete(key));
    }
    this.#kept.set(key, parsed);
    while (this.#kept.size > KEPT) this.#kept.delete(this.#kept.keys().next().value!);
    try {
      return await parsed;
    } catch (error) {
      if (error instanceof FormatError) throw createHostError('SPC_ERR_SPECIMEN_FILE_INVALID', record.id, error.message);
      throw error;
    }
  }
}
