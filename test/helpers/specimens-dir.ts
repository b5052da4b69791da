/**
 * Writes a small specimens directory for a test: a static mesh, a static .npy volume with a
 * sidecar, a dynamic specimen refining the `square` schema, and one specimen.json that tries
 * to escape the directory.
 */
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const OBJ_TEXT = 'v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n';

/** A float32 .npy file of the given shape holding `value(i)` at flat index i (absent: 0, 1, 2, ...). */
export function npyBytes(shape: number[], order: 'little' | 'big' = 'little', value: (i: number) => number = (i) => i): Buffer {
  const count = shape.reduce((a, b) => a * b, 1);
  let header = `{'descr': '${order === 'big' ? '>' : '<'}f4', 'fortran_order': False, 'shape': (${shape.join(', ')}${shape.length === 1 ? ',' : ''}), }`;
  const total = 10 + header.length + 1;
  header = header + ' '.repeat((64 - (total % 64)) % 64) + '\n';
  const prelude = Buffer.alloc(10);
  Buffer.from([0x93]).copy(prelude, 0);
  prelude.write('NUMPY', 1, 'latin1');
  prelude[6] = 1;
  prelude[7] = 0;
  prelude.writeUInt16LE(header.length, 8);
  const data = Buffer.alloc(count * 4);
  for (let i = 0; i < count; i++) {
    if (order === 'big') data.writeFloatBE(value(i), i * 4);
    else data.writeFloatLE(value(i), i * 4);
  }
  return Buffer.concat([prelude, Buffer.from(header, 'latin1'), data]);
}

export async function makeSpecimensDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'vitrine-specimens-'));
  const folder = async (name: string, files: Record<string, string | Buffer>) => {
    await mkdir(join(dir, name), { recursive: true });
    for (const [file, content] of Object.entries(files)) await writeFile(join(dir, name, file), content);
  };
  await folder('tri', {
    'specimen.json': JSON.stringify({ display_name: 'Triangle', description: 'One triangle', type: 'mesh', data_file: 'tri.obj', tags: ['static'] }),
    'tri.obj': OBJ_TEXT,
  });
  await folder('vol', {
    'specimen.json': JSON.stringify({ display_name: 'Volume', type: 'volume', data_file: 'vol.npy' }),
    'vol.npy': npyBytes([2, 3, 4]),
    'vol.json': JSON.stringify({ spacing: [1, 2, 3], origin: [0, 0, 1] }),
  });
  await folder('dyn-square', {
    'specimen.json': JSON.stringify({
      display_name: 'Refined square',
      type: 'mesh',
      function_name: 'square',
      schema: { properties: { size: { default: 2, maximum: 5 } } },
    }),
  });
  await folder('escape', {
    'specimen.json': JSON.stringify({ display_name: 'Escape', type: 'mesh', data_file: '../../../../../../etc/passwd', thumbnail_file: '/etc/hostname' }),
  });
  return dir;
}
