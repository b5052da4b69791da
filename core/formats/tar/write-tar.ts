/**
 * @module write-tar
 * A ustar archive of plain files, as a sequence of buffers to send one after another (nothing
 * is copied into one large buffer), and its length known before the first byte is sent.
 */
import { BLOCK, tarHeader } from './tar-header.ts';

/** A file to archive: its path and its bytes, in one piece or several. */
export interface TarFile {
  name: string;
  data: readonly Uint8Array[];
}

/** The archive's pieces in order and their total length. */
export function writeTar(files: readonly TarFile[], mtimeMs = Date.now()): { chunks: Uint8Array[]; length: number } {
  const chunks: Uint8Array[] = [];
  let length = 0;
  const push = (chunk: Uint8Array): void => {
    chunks.push(chunk);
    length += chunk.length;
  };
  for (const file of files) {
    const size = file.data.reduce((sum, part) => sum + part.length, 0);
    push(tarHeader(file.name, size, mtimeMs));
    for (const part of file.data) if (part.length > 0) push(part);
    const pad = (BLOCK - (size % BLOCK)) % BLOCK;
    if (pad > 0) push(new Uint8Array(pad));
  }
  // Two zero blocks end an archive.
  push(new Uint8Array(2 * BLOCK));
  return { chunks, length };
}
