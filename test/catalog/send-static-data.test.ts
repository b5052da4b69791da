import { randomBytes } from 'node:crypto';
import { mkdtemp, open, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeEnvelope } from '../../core/envelope/decode-envelope.ts';
import { ENVELOPE_MEDIA_TYPE } from '../../core/envelope/media-type.ts';
import type { SpecimenRecord } from '../../core/catalog/specimen-record.ts';
import { npyBytes } from '../fixtures/specimens/npy-writer.ts';
import { catalogTestApp, staticRecord } from './helpers/catalog-test-app.ts';

let dir: string;
let app: FastifyInstance;
const meshBytes = randomBytes(300_000);
const volume = Float32Array.from({ length: 8 * 6 * 4 }, (_, i) => Math.sin(i) * 100);
const bigEndian = Uint16Array.from({ length: 5 * 7 * 3 }, (_, i) => i * 311);

function file(name: string): string {
  return path.join(dir, name);
}

function npyRecord(id: string, fileName: string, extra: Partial<Extract<SpecimenRecord['data'], { kind: 'npy' }>> = {}): SpecimenRecord {
  return staticRecord(id, { type: 'volume', data: { kind: 'npy', path: file(fileName), fileName, ...extra } });
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'vitrine-static-'));
  await writeFile(file('knot.glb'), meshBytes);
  await writeFile(file('we"ird\\ ñame.obj'), 'v 0 0 0\n');
  await writeFile(file('empty.ply'), '');
  await writeFile(file('phantom.npy'), npyBytes({ descr: '<f4', shape: [8, 6, 4], data: new Uint8Array(volume.buffer) }));
  const swapped = Buffer.from(bigEndian.buffer.slice(0)).swap16();
  await writeFile(file('big-endian.npy'), npyBytes({ descr: '>u2', shape: [5, 7, 3], data: swapped, version: 2 }));
  await writeFile(file('fortran.npy'), npyBytes({ descr: '<f4', shape: [2, 3], fortranOrder: true, data: new Uint8Array(24) }));
  await writeFile(file('fortran-1d.npy'), npyBytes({ descr: '|u1', shape: [1, 9], fortranOrder: true, data: new Uint8Array(9).fill(7) }));
  await writeFile(file('short.npy'), npyBytes({ descr: '<f4', shape: [4, 4, 4], data: new Uint8Array(255) }));
  await writeFile(file('long.npy'), npyBytes({ descr: '|u1', shape: [4], data: new Uint8Array(5) }));
  await writeFile(file('int64.npy'), npyBytes({ descr: '<i8', shape: [2], data: new Uint8Array(16) }));
  await writeFile(file('garbage.npy'), 'this is not numpy');
  app = catalogTestApp([
    staticRecord('knot', { data: { kind: 'file', path: file('knot.glb'), fileName: 'knot.glb' } }),
    staticRecord('weird', { data: { kind: 'file', path: file('we"ird\\ ñame.obj'), fileName: 'we"ird\\ ñame.obj' } }),
    staticRecord('empty', { data: { kind: 'file', path: file('empty.ply'), fileName: 'empty.ply' } }),
    staticRecord('gone', { data: { kind: 'file', path: file('gone.stl'), fileName: 'gone.stl' } }),
    staticRecord('dir', { data: { kind: 'file', path: dir, fileName: 'dir' } }),
    staticRecord('nodata'),
    npyRecord('phantom', 'phantom.npy', { spacing: [0.5, 0.5, 2], origin: [1, 2, 3] }),
    npyRecord('big-endian', 'big-endian.npy'),
    npyRecord('fortran', 'fortran.npy'),
    npyRecord('fortran-1d', 'fortran-1d.npy'),
    npyRecord('short', 'short.npy'),
    npyRecord('long', 'long.npy'),
    npyRecord('int64', 'int64.npy'),
    npyRecord('garbage', 'garbage.npy'),
    npyRecord('npy-gone', 'npy-gone.npy'),
    staticRecord('remote', {
      data: {
        kind: 'remote',
        fetch: async () => ({
          contentType: 'model/stl',
          length: 11,
          fileName: 'remote.stl',
          body: Readable.from([Buffer.from('solid r\n'), Buffer.from('end')]),
        }),
      },
    }),
  ]);
  await app.ready();
});

afterAll(async () => {
  await app.close();
  await rm(dir, { recursive: true, force: true });
});

describe('sendStaticData: files', () => {
  it('streams the file with content type, length and a quoted attachment name', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/specimens/knot/data' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('model/gltf-binary');
    expect(res.headers['content-length']).toBe(String(meshBytes.length));
    expect(res.headers['content-disposition']).toBe('attachment; filename="knot.glb"');
    expect(res.rawPayload.equals(meshBytes)).toBe(true);
  });

  it('escapes quotes and backslashes and adds filename* for non-ASCII names', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/specimens/weird/data' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('model/obj');
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="we\\"ird\\\\ _ame.obj"; filename*=UTF-8''we%22ird%5C%20%C3%B1ame.obj`,
    );
    expect(res.body).toBe('v 0 0 0\n');
  });

  it('serves an empty file with Content-Length 0', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/specimens/empty/data' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-length']).toBe('0');
    expect(res.rawPayload.length).toBe(0);
  });

  it('answers 404 SPC_ERR_SPECIMEN_FILE_MISSING for a missing file or a directory', async () => {
    for (const id of ['gone', 'dir', 'npy-gone']) {
      const res = await app.inject({ method: 'GET', url: `/api/specimens/${id}/data` });
      expect(res.statusCode, id).toBe(404);
      expect(res.json().code).toBe('SPC_ERR_SPECIMEN_FILE_MISSING');
    }
  });

  it('answers 404 SPC_ERR_SPECIMEN_NO_DATA without a data source', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/specimens/nodata/data' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ status_code: 404, code: 'SPC_ERR_SPECIMEN_NO_DATA' });
  });

  it('pipes remote data with its headers', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/specimens/remote/data' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('model/stl');
    expect(res.headers['content-length']).toBe('11');
    expect(res.headers['content-disposition']).toBe('attachment; filename="remote.stl"');
    expect(res.body).toBe('solid r\nend');
  });
});

describe('sendStaticData: .npy volumes as envelopes', () => {
  it('sends a volume envelope that decodes to the same values, with sidecar spacing and origin', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/specimens/phantom/data' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe(ENVELOPE_MEDIA_TYPE);
    expect(res.headers['content-length']).toBe(String(res.rawPayload.length));
    const decoded = decodeEnvelope(res.rawPayload);
    if (decoded.type !== 'volume') throw new Error('not a volume');
    expect(decoded.shape).toEqual([8, 6, 4]);
    expect(decoded.dtype).toBe('float32');
    expect(decoded.spacing).toEqual([0.5, 0.5, 2]);
    expect(decoded.origin).toEqual([1, 2, 3]);
    expect(Array.from(decoded.data)).toEqual(Array.from(volume));
    // Exactly preamble + data: nothing trailing.
    const preambleLength = res.rawPayload.readUInt32LE(0);
    expect(res.rawPayload.length).toBe(4 + preambleLength + volume.byteLength);
  });

  it('omits spacing and origin when unknown', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/specimens/big-endian/data' });
    const decoded = decodeEnvelope(res.rawPayload);
    expect(decoded.preamble).not.toHaveProperty('spacing');
    expect(decoded.preamble).not.toHaveProperty('origin');
  });

  it('converts a big-endian file to the little-endian envelope', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/specimens/big-endian/data' });
    expect(res.statusCode).toBe(200);
    const decoded = decodeEnvelope(res.rawPayload);
    if (decoded.type !== 'volume') throw new Error('not a volume');
    expect(decoded.dtype).toBe('uint16');
    expect(Array.from(decoded.data)).toEqual(Array.from(bigEndian));
  });

  it('serves a Fortran-ordered array whose bytes equal C order', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/specimens/fortran-1d/data' });
    expect(res.statusCode).toBe(200);
    const decoded = decodeEnvelope(res.rawPayload);
    if (decoded.type !== 'volume') throw new Error('not a volume');
    expect(Array.from(decoded.data)).toEqual(new Array(9).fill(7));
  });

  it.each([
    ['fortran', /Fortran/],
    ['short', /needs 256/],
    ['long', /holds 5 data bytes/],
    ['int64', /unsupported dtype '<i8'/],
    ['garbage', /not a \.npy/],
  ])('refuses %s with SPC_ERR_SPECIMEN_FILE_INVALID', async (id, why) => {
    const res = await app.inject({ method: 'GET', url: `/api/specimens/${id}/data` });
    expect(res.statusCode).toBe(500);
    expect(res.json().code).toBe('SPC_ERR_SPECIMEN_FILE_INVALID');
    expect(res.json().detail).toMatch(why);
  });

  it('uses the configured envelope media type', async () => {
    const vendor = catalogTestApp([npyRecord('phantom', 'phantom.npy')], 'application/x-ascribe-envelope-v1');
    try {
      const res = await vendor.inject({ method: 'GET', url: '/api/specimens/phantom/data' });
      expect(res.headers['content-type']).toBe('application/x-ascribe-envelope-v1');
    } finally {
      await vendor.close();
    }
  });
});

describe('sendStaticData: byte ranges', () => {
  it('advertises ranges and serves one with 206 and Content-Range', async () => {
    const full = await app.inject({ method: 'GET', url: '/api/specimens/knot/data' });
    expect(full.headers['accept-ranges']).toBe('bytes');
    const res = await app.inject({ method: 'GET', url: '/api/specimens/knot/data', headers: { range: 'bytes=1000-1999' } });
    expect(res.statusCode).toBe(206);
    expect(res.headers['content-range']).toBe(`bytes 1000-1999/${meshBytes.length}`);
    expect(res.headers['content-length']).toBe('1000');
    expect(res.rawPayload.equals(meshBytes.subarray(1000, 2000))).toBe(true);
  });

  it('serves open-ended and suffix ranges', async () => {
    const tail = await app.inject({ method: 'GET', url: '/api/specimens/knot/data', headers: { range: 'bytes=299000-' } });
    expect(tail.statusCode).toBe(206);
    expect(tail.rawPayload.equals(meshBytes.subarray(299000))).toBe(true);
    const suffix = await app.inject({ method: 'GET', url: '/api/specimens/knot/data', headers: { range: 'bytes=-10' } });
    expect(suffix.rawPayload.equals(meshBytes.subarray(meshBytes.length - 10))).toBe(true);
  });

  it('answers 416 for a range past the end, and the whole file for a malformed or multi-range header', async () => {
    const past = await app.inject({ method: 'GET', url: '/api/specimens/knot/data', headers: { range: `bytes=${meshBytes.length}-` } });
    expect(past.statusCode).toBe(416);
    expect(past.headers['content-range']).toBe(`bytes */${meshBytes.length}`);
    for (const range of ['bytes=0-1,5-6', 'lines=1-2', 'bytes=9-3']) {
      const res = await app.inject({ method: 'GET', url: '/api/specimens/knot/data', headers: { range } });
      expect(res.statusCode, range).toBe(200);
      expect(res.rawPayload.length).toBe(meshBytes.length);
    }
  });

  it('ignores Range on .npy envelopes', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/specimens/phantom/data', headers: { range: 'bytes=0-3' } });
    expect(res.statusCode).toBe(200);
    expect(decodeEnvelope(res.rawPayload).type).toBe('volume');
  });
});

describe('sendStaticData: HEAD', () => {
  it('answers HEAD with the GET headers and no body', async () => {
    for (const id of ['knot', 'phantom', 'big-endian']) {
      const get = await app.inject({ method: 'GET', url: `/api/specimens/${id}/data` });
      const head = await app.inject({ method: 'HEAD', url: `/api/specimens/${id}/data` });
      expect(head.statusCode, id).toBe(200);
      expect(head.headers['content-length'], id).toBe(get.headers['content-length']);
      expect(head.headers['content-type'], id).toBe(get.headers['content-type']);
      expect(head.rawPayload.length, id).toBe(0);
    }
  });

  it('answers HEAD for a missing file with 404', async () => {
    const head = await app.inject({ method: 'HEAD', url: '/api/specimens/gone/data' });
    expect(head.statusCode).toBe(404);
  });
});

describe('sendStaticData: streaming', () => {
  it('starts answering a 1 GiB volume without reading it into memory', async () => {
    // A sparse file: 1 GiB of zeros that costs no disk. Reading it whole would add ~1 GiB of
    // memory before the first byte is sent; streaming it adds a few chunks.
    const shape = [1024, 1024, 1024];
    const header = npyBytes({ descr: '|u1', shape, data: new Uint8Array(0) });
    const sparse = file('sparse.npy');
    await writeFile(sparse, header);
    const handle = await open(sparse, 'r+');
    await handle.truncate(header.length + 1024 ** 3);
    await handle.close();
    const server = catalogTestApp([npyRecord('sparse', 'sparse.npy')]);
    try {
      const address = await server.listen({ port: 0, host: '127.0.0.1' });
      const before = process.memoryUsage().rss;
      const controller = new AbortController();
      const res = await fetch(`${address}/api/specimens/sparse/data`, { signal: controller.signal });
      expect(res.status).toBe(200);
      const reader = res.body!.getReader();
      let received = 0;
      const first: Uint8Array[] = [];
      while (received < 4 << 20) {
        const { value, done } = await reader.read();
        if (done) break;
        first.push(value);
        received += value.length;
      }
      const growth = process.memoryUsage().rss - before;
      controller.abort();
      await reader.cancel().catch(() => {});
      const preambleLength = Buffer.concat(first).readUInt32LE(0);
      expect(Number(res.headers.get('content-length'))).toBe(4 + preambleLength + 1024 ** 3);
      expect(received).toBeGreaterThanOrEqual(4 << 20);
      expect(growth).toBeLessThan(512 * 1024 * 1024);
    } finally {
      await server.close();
      await rm(sparse, { force: true });
    }
  });
});
