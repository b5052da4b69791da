/**
 * The ustar writer and reader: what one writes the other reads back byte for byte, the
 * system's `tar` reads what the writer makes, and the reader takes what `tar -C dir .` makes
 * (its `./` names and directories stepped over). A header with a changed byte, or an archive
 * cut short, is refused saying where.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tarEntries } from '../helpers/tar-entries.ts';
import { writeTar } from '../../core/formats/tar/write-tar.ts';

const joined = (chunks: Uint8Array[]) => Buffer.concat(chunks);

describe('tar archives', () => {
  const files = [
    { name: 'a.json', data: [Buffer.from('{"a":1}')] },
    { name: `results/${'f'.repeat(64)}`, data: [Buffer.from('head\n'), new Uint8Array(1000).fill(7)] },
    { name: 'empty', data: [] },
  ];

  it('are read back as written, and by the system tar', async () => {
    const { chunks, length } = writeTar(files, 1_700_000_000_000);
    const bytes = joined(chunks);
    expect(bytes.length).toBe(length);
    expect(length % 512).toBe(0);
    const read = await tarEntries(bytes);
    expect(read.map((e) => e.name)).toEqual(files.map((f) => f.name));
    expect(Buffer.from(read[1]!.data)).toEqual(Buffer.concat(files[1]!.data));
    expect(read[2]!.data.length).toBe(0);
    const dir = mkdtempSync(join(tmpdir(), 'vitrine-tar-'));
    writeFileSync(join(dir, 'x.tar'), bytes);
    expect(execFileSync('tar', ['-xOf', join(dir, 'x.tar'), 'a.json'], { encoding: 'utf8' })).toBe('{"a":1}');
  });

  it('made by the system tar are read, names without their ./', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vitrine-tar-'));
    mkdirSync(join(dir, 'in', 'results'), { recursive: true });
    writeFileSync(join(dir, 'in', 'results', 'r'), 'payload');
    execFileSync('tar', ['--format=ustar', '-cf', join(dir, 'x.tar'), '-C', join(dir, 'in'), '.']);
    const read = await tarEntries(readFileSync(join(dir, 'x.tar')));
    expect(read.map((e) => [e.name, Buffer.from(e.data).toString()])).toEqual([['results/r', 'payload']]);
  });

  it('are refused when a header changed or the archive was cut short', async () => {
    const bytes = joined(writeTar(files).chunks);
    const changed = Buffer.from(bytes);
    changed[3] = 0x41;
    await expect(tarEntries(changed)).rejects.toThrow(/at byte 0 fails its checksum/);
    await expect(tarEntries(bytes.subarray(0, 900))).rejects.toThrow(/cut short/);
    await expect(tarEntries(bytes.subarray(0, bytes.length - 1024))).rejects.toThrow(/without its end marker/);
  });
});
