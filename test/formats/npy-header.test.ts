import { mkdtemp, open, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  fortranIsCOrder,
  npyElementType,
  NpyFormatError,
  parseHeaderDict,
  parseNpyHeader,
  readNpyHeader,
} from '../../core/formats/npy/npy-header.ts';
import { npyBytes } from '../fixtures/specimens/npy-writer.ts';

describe('parseNpyHeader', () => {
  it('reads a version 1 header', () => {
    const bytes = npyBytes({ descr: '<f4', shape: [4, 5, 6], data: new Uint8Array(4 * 5 * 6 * 4) });
    const header = parseNpyHeader(bytes);
    expect(header).toEqual({ version: '1.0', descr: '<f4', fortranOrder: false, shape: [4, 5, 6], dataOffset: 128 });
    expect(header.dataOffset % 64).toBe(0);
  });

  it('reads version 2 and 3 headers (u32 length)', () => {
    for (const version of [2, 3] as const) {
      const bytes = npyBytes({ descr: '|u1', shape: [3, 2], data: new Uint8Array(6), version });
      const header = parseNpyHeader(bytes);
      expect(header.version).toBe(`${version}.0`);
      expect(header.shape).toEqual([3, 2]);
      expect(header.dataOffset).toBe(bytes.length - 6);
    }
  });

  it('reads 1-d, 0-d and empty shapes', () => {
    expect(parseNpyHeader(npyBytes({ descr: '<i4', shape: [7], data: new Uint8Array(28) })).shape).toEqual([7]);
    expect(parseNpyHeader(npyBytes({ descr: '<i4', shape: [], data: new Uint8Array(4) })).shape).toEqual([]);
    expect(parseNpyHeader(npyBytes({ descr: '<i4', shape: [0, 3], data: new Uint8Array(0) })).shape).toEqual([0, 3]);
  });

  it('reads the fortran_order flag', () => {
    const header = parseNpyHeader(npyBytes({ descr: '<f8', shape: [2, 2], fortranOrder: true, data: new Uint8Array(32) }));
    expect(header.fortranOrder).toBe(true);
  });

  it('accepts dict spacing variants and Python 2 long integers', () => {
    expect(parseHeaderDict("{'shape':(64L,64L,3L),'fortran_order':False,'descr':'<u2'}")).toEqual({
      descr: '<u2',
      fortranOrder: false,
      shape: [64, 64, 3],
    });
    expect(parseHeaderDict('{"descr": "<f4", "fortran_order": True, "shape": ( 2 , 3 ) }').shape).toEqual([2, 3]);
  });

  it('rejects a bad magic, an unknown version, a truncated header and structured dtypes', () => {
    expect(() => parseNpyHeader(Buffer.from('not a numpy file at all'))).toThrow(NpyFormatError);
    const good = npyBytes({ descr: '<f4', shape: [1], data: new Uint8Array(4) });
    const v9 = Buffer.from(good);
    v9[6] = 9;
    expect(() => parseNpyHeader(v9)).toThrow(/version 9/);
    expect(() => parseNpyHeader(good.subarray(0, 40))).toThrow(/truncated/);
    expect(() => parseHeaderDict("{'descr': [('x', '<f4'), ('y', '<f4')], 'fortran_order': False, 'shape': (3,), }")).toThrow(
      /structured/,
    );
    expect(() => parseHeaderDict("{'descr': '<f4', 'fortran_order': False, 'shape': (3, x), }")).toThrow(/shape/);
  });
});

describe('npyElementType', () => {
  it.each([
    ['<f4', 'float32', 4, 'little'],
    ['<f8', 'float64', 8, 'little'],
    ['|u1', 'uint8', 1, 'little'],
    ['|i1', 'int8', 1, 'little'],
    ['|b1', 'uint8', 1, 'little'],
    ['<u2', 'uint16', 2, 'little'],
    ['<i2', 'int16', 2, 'little'],
    ['<u4', 'uint32', 4, 'little'],
    ['<i4', 'int32', 4, 'little'],
    ['>f4', 'float32', 4, 'big'],
    ['>i2', 'int16', 2, 'big'],
    ['>u1', 'uint8', 1, 'little'],
  ])('maps %s', (descr, dtype, itemSize, byteOrder) => {
    expect(npyElementType(descr)).toEqual({ dtype, itemSize, byteOrder });
  });

  it.each(['<i8', '<u8', '<f2', '<c8', '<U10', '|S4', 'O', 'float32'])('refuses %s', (descr) => {
    expect(() => npyElementType(descr)).toThrow(NpyFormatError);
  });
});

describe('fortranIsCOrder', () => {
  it('is true only when at most one axis is longer than 1', () => {
    expect(fortranIsCOrder([5])).toBe(true);
    expect(fortranIsCOrder([1, 5, 1])).toBe(true);
    expect(fortranIsCOrder([2, 3])).toBe(false);
  });
});

describe('readNpyHeader', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'vitrine-npy-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('reads only the header of an open file', async () => {
    const file = path.join(dir, 'big.npy');
    const bytes = npyBytes({ descr: '<u2', shape: [64, 64, 64], data: new Uint8Array(64 * 64 * 64 * 2), version: 2 });
    await writeFile(file, bytes);
    const handle = await open(file, 'r');
    try {
      const header = await readNpyHeader(handle);
      expect(header).toMatchObject({ version: '2.0', descr: '<u2', shape: [64, 64, 64] });
      expect(bytes.length - header.dataOffset).toBe(64 * 64 * 64 * 2);
    } finally {
      await handle.close();
    }
  });

  it('rejects a file too short to hold its header', async () => {
    const file = path.join(dir, 'short.npy');
    await writeFile(file, npyBytes({ descr: '<f4', shape: [1], data: new Uint8Array(4) }).subarray(0, 30));
    const handle = await open(file, 'r');
    try {
      await expect(readNpyHeader(handle)).rejects.toThrow(NpyFormatError);
    } finally {
      await handle.close();
    }
  });
});
