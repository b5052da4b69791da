/**
 * The docs' snippet that reads a raw X, Y, Z, 3, T float32 field (Ascribe-XR's 5-D layout,
 * time fastest) into a `tczyx` array, run as the docs print it: a field whose every value
 * says where it is is written in that layout (with numpy's own indexing, not the snippet's),
 * read back through the snippet, and every sample is found at its place; the array is then
 * one a host takes as a vector field (checked as a plugin's result is).
 */
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { PYTHON_MODULE_DIR } from '../../core/python/python-module-dir.ts';
import { TEST_PYTHON } from '../helpers/test-python.ts';

const DOC = fileURLToPath(new URL('../../docs/time-and-channels.md', import.meta.url));

/** The first python block after the `snippet: read_raw_field` marker. */
async function snippet(): Promise<string> {
  const text = await readFile(DOC, 'utf8');
  const marker = text.indexOf('<!-- snippet: read_raw_field');
  expect(marker).toBeGreaterThan(0);
  const match = /```python\n([\s\S]*?)```/.exec(text.slice(marker));
  expect(match).not.toBeNull();
  return match![1]!;
}

const CHECK = String.raw`
import json, os, sys, tempfile
import numpy as np
from vitrine._coerce import to_wire
from vitrine import VolumeResult

X, Y, Z, T = 7, 5, 3, 4
x, y, z, k, t = np.indices((X, Y, Z, 3, T))
raw = (t * 10000 + k * 1000 + z * 100 + y * 10 + x).astype("<f4")
path = os.path.join(tempfile.mkdtemp(), "field.raw")
raw.tofile(path)
assert os.path.getsize(path) == X * Y * Z * 3 * T * 4

field = read_raw_field(path, X, Y, Z, T)
tt, kk, zz, yy, xx = np.indices((T, 3, Z, Y, X))
meta, arrays = to_wire(VolumeResult.from_numpy(field, axes="tczyx", vector=True), "volume")
print(json.dumps({
    "shape": list(field.shape),
    "contiguous": bool(field.flags["C_CONTIGUOUS"]),
    "dtype": str(field.dtype),
    "every_sample_in_place": bool(np.array_equal(field, tt * 10000 + kk * 1000 + zz * 100 + yy * 10 + xx)),
    "one": float(field[3, 2, 1, 4, 6]),
    "wire_shape": meta["shape"],
}))
`;

describe('the docs snippet for a raw X, Y, Z, 3, T field', () => {
  it('reads it into a tczyx array with every sample in its place', async () => {
    const code = `${await snippet()}\n${CHECK}`;
    const output = await new Promise<string>((resolve, reject) =>
      execFile(TEST_PYTHON, ['-c', code], { env: { ...process.env, PYTHONPATH: PYTHON_MODULE_DIR }, timeout: 60_000 }, (error, stdout, stderr) =>
        error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(stdout),
      ),
    );
    const got = JSON.parse(output) as Record<string, unknown>;
    expect(got).toEqual({
      shape: [4, 3, 3, 5, 7],
      contiguous: true,
      dtype: 'float32',
      every_sample_in_place: true,
      one: 3 * 10000 + 2 * 1000 + 100 + 40 + 6,
      wire_shape: [4, 3, 3, 5, 7],
    });
  });
});
