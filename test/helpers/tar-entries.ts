/**
 * The plain files of a ustar archive held in memory, read as the host reads one on disk
 * (indexTarFile): the bytes go to a temporary file, and each entry comes back as a view of the
 * given bytes (no copy), so changing an entry's data changes the archive.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { indexTarFile } from '../../core/formats/tar/index-tar-file.ts';

export interface TarEntry {
  name: string;
  data: Uint8Array;
}

/** Every plain file of `bytes`, in archive order. @throws FormatError naming the byte where it broke. */
export async function tarEntries(bytes: Uint8Array): Promise<TarEntry[]> {
  const dir = mkdtempSync(join(tmpdir(), 'vitrine-tar-'));
  const path = join(dir, 'archive.tar');
  writeFileSync(path, bytes);
  const handle = await open(path);
  try {
    const index = await indexTarFile(handle, bytes.length);
    return index.map((entry) => ({ name: entry.name, data: bytes.subarray(entry.offset, entry.offset + entry.size) }));
  } finally {
    await handle.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
