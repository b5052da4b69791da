/**
 * @module open-static-data
 * Opens the data of a static specimen (`/api/specimens/{id}/data`). A plain file is streamed
 * from disk with its content type, `Content-Length` and a download `Content-Disposition`
 * (single byte ranges honoured). A `.npy`
 * volume is served as a volume envelope: the preamble built from its header (and sidecar)
 * followed by the array bytes streamed straight from the file. Nothing reads a whole file
 * into memory. Remote data (a relayed worker) is piped through with its headers.
 * No HTTP framework here: the result is an OpenedBody (core/http/send-opened.ts sends it).
 */
import { open, type FileHandle } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { encodePreamble } from '../envelope/preamble.ts';
import { createHostError, type HostError } from '../errors.ts';
import type { DataSource, SpecimenRecord } from './specimen-record.ts';
import { parseByteRange } from './byte-range.ts';
import { byteSwapStream } from './byte-swap-stream.ts';
import { contentDisposition } from './content-disposition.ts';
import { dataMediaType } from './file-media-types.ts';
import { elementCount, fortranIsCOrder, npyElementType, NpyFormatError, readNpyHeader } from '../formats/npy/npy-header.ts';
import type { OpenedBody, OpenRequest } from './opened-body.ts';
import { checkedLabels } from '../results/label-fields.ts';

/**
 * A readable that yields a small buffer and then everything from another readable, without
 * buffering the latter: an envelope preamble followed by a file streamed from disk. Destroying
 * the result (a client that hangs up) destroys the inner stream, which closes its file.
 */
function prefixedStream(prefix: Buffer, rest: Readable): Readable {
  async function* parts(): AsyncGenerator<Buffer> {
    yield prefix;
    for await (const chunk of rest) yield chunk as Buffer;
  }
  const out = Readable.from(parts(), { objectMode: false });
  out.once('close', () => {
    if (!rest.destroyed) rest.destroy();
  });
  return out;
}

export interface StaticDataOptions {
  /** Media type of envelopes (`--envelope-media-type`). */
  envelopeMediaType: string;
}

type FileSource = Extract<DataSource, { kind: 'file' | 'npy' }>;

/** Opens a data file for reading; a missing (or non-regular) file is SPC_ERR_SPECIMEN_FILE_MISSING. */
async function openDataFile(record: SpecimenRecord, source: FileSource): Promise<{ handle: FileHandle; size: number }> {
  const missing = (): HostError => createHostError('SPC_ERR_SPECIMEN_FILE_MISSING', record.id, source.fileName);
  const handle = await open(source.path, 'r').catch(() => {
    throw missing();
  });
  const info = await handle.stat().catch(() => null);
  if (!info?.isFile()) {
    await handle.close().catch(() => {});
    throw missing();
  }
  return { handle, size: info.size };
}

async function openFile(request: OpenRequest, source: FileSource, handle: FileHandle, size: number): Promise<OpenedBody> {
  const headers: OpenedBody['headers'] = {
    'content-type': dataMediaType(source.fileName),
    'content-disposition': contentDisposition(source.fileName),
    'accept-ranges': 'bytes',
  };
  const fileName = source.fileName;
  // With If-Range we cannot tell whether the client's copy is current: send the whole file.
  const range = request.ifRange === undefined ? parseByteRange(request.range, size) : { kind: 'none' as const };
  if (range.kind === 'unsatisfiable') {
    await handle.close().catch(() => {});
    return { status: 416, headers: { ...headers, 'content-range': `bytes */${size}`, 'content-length': 0 }, body: Buffer.alloc(0), fileName };
  }
  const start = range.kind === 'range' ? range.start : 0;
  const end = range.kind === 'range' ? range.end : size - 1;
  if (range.kind === 'range') headers['content-range'] = `bytes ${start}-${end}/${size}`;
  headers['content-length'] = end - start + 1;
  const status = range.kind === 'range' ? 206 : 200;
  // HEAD, or an empty file (`end: -1` is not a valid range, and there is nothing to stream).
  if (request.head || size === 0) {
    await handle.close().catch(() => {});
    return { status, headers, body: request.head ? null : Buffer.alloc(0), fileName };
  }
  return { status, headers, body: handle.createReadStream({ start, end }), fileName };
}

async function openNpy(
  request: OpenRequest,
  record: SpecimenRecord,
  source: Extract<DataSource, { kind: 'npy' }>,
  handle: FileHandle,
  size: number,
  options: StaticDataOptions,
): Promise<OpenedBody> {
  const invalid = (why: string): HostError => createHostError('SPC_ERR_SPECIMEN_FILE_INVALID', record.id, why);
  let header;
  let element;
  try {
    header = await readNpyHeader(handle);
    element = npyElementType(header.descr);
  } catch (error) {
    if (error instanceof NpyFormatError) throw invalid(`${source.fileName}: ${error.message}`);
    throw error;
  }
  // A Fortran-ordered array would need a transpose, which cannot be streamed; refuse it unless
  // its bytes are the same as in C order (at most one axis longer than 1).
  if (header.fortranOrder && !fortranIsCOrder(header.shape)) {
    throw invalid(`${source.fileName} is stored in Fortran order; save it in C order (numpy.ascontiguousarray)`);
  }
  const dataBytes = elementCount(header.shape) * element.itemSize;
  const present = size - header.dataOffset;
  if (present !== dataBytes) {
    throw invalid(
      `${source.fileName} holds ${present} data bytes, but shape [${header.shape.join(', ')}] of ${element.dtype} needs ${dataBytes}`,
    );
  }
  const preamble: Record<string, unknown> = { type: 'volume', shape: header.shape, dtype: element.dtype };
  if (source.spacing) preamble.spacing = source.spacing;
  if (source.origin) preamble.origin = source.origin;
  if (source.labels) Object.assign(preamble, checkedLabels(source.labels, element.dtype, (why) => invalid(`${source.fileName}: ${why}`)));
  const prefix = encodePreamble(preamble);
  const headers = { 'content-type': options.envelopeMediaType, 'content-length': prefix.length + dataBytes };
  if (request.head || dataBytes === 0) {
    await handle.close().catch(() => {});
    return { status: 200, headers, body: request.head ? null : prefix, fileName: null };
  }
  let body: Readable = handle.createReadStream({ start: header.dataOffset, end: size - 1 });
  // Big-endian files are converted while streaming: the envelope is little-endian.
  if (element.byteOrder === 'big') {
    const file = body;
    body = file.pipe(byteSwapStream(element.itemSize));
    body.once('close', () => file.destroy());
    file.once('error', (error) => body.destroy(error));
  }
  return { status: 200, headers, body: prefixedStream(prefix, body), fileName: null };
}

/**
 * Opens the data of the static specimen `record`.
 * @throws HostError SPC_ERR_SPECIMEN_NO_DATA when the record has no data source,
 * SPC_ERR_SPECIMEN_FILE_MISSING (404) when its file is gone, SPC_ERR_SPECIMEN_FILE_INVALID
 * for a `.npy` that cannot be served (bad header, unsupported dtype, Fortran order, wrong size).
 */
export async function openStaticData(record: SpecimenRecord, request: OpenRequest, options: StaticDataOptions): Promise<OpenedBody> {
  const source = record.data;
  if (!source) throw createHostError('SPC_ERR_SPECIMEN_NO_DATA', record.id);
  if (source.kind === 'remote') {
    const fetched = await source.fetch(request.signal);
    const headers: OpenedBody['headers'] = { 'content-type': fetched.contentType };
    const length = Buffer.isBuffer(fetched.body) ? fetched.body.length : fetched.length;
    if (length !== undefined) headers['content-length'] = length;
    if (fetched.fileName) headers['content-disposition'] = contentDisposition(fetched.fileName);
    return { status: 200, headers, body: fetched.body, fileName: fetched.fileName ?? null };
  }
  const { handle, size } = await openDataFile(record, source);
  try {
    if (source.kind === 'file') return await openFile(request, source, handle, size);
    return await openNpy(request, record, source, handle, size, options);
  } catch (error) {
    await handle.close().catch(() => {});
    throw error;
  }
}
