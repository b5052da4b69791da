import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { inflateSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodePng } from '../../core/catalog/png-encoder.ts';
import { placeholderPng } from '../../core/catalog/placeholder-png.ts';
import { catalogTestApp, staticRecord } from './helpers/catalog-test-app.ts';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Minimal PNG reader for checks: chunk list with CRCs verified, IHDR fields, inflated IDAT. */
function readPng(bytes: Buffer): { width: number; height: number; colorType: number; types: string[]; raw: Buffer } {
  expect(bytes.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);
  const types: string[] = [];
  const idat: Buffer[] = [];
  let offset = 8;
  let ihdr: Buffer | null = null;
  while (offset < bytes.length) {
    const length = bytes.readUInt32BE(offset);
    const type = bytes.toString('ascii', offset + 4, offset + 8);
    const body = bytes.subarray(offset + 8, offset + 8 + length);
    const crc = bytes.readUInt32BE(offset + 8 + length);
    expect(crc).toBe(zlibCrc(bytes.subarray(offset + 4, offset + 8 + length)));
    types.push(type);
    if (type === 'IHDR') ihdr = body;
    if (type === 'IDAT') idat.push(body);
    offset += 12 + length;
  }
  if (!ihdr) throw new Error('no IHDR');
  return { width: ihdr.readUInt32BE(0), height: ihdr.readUInt32BE(4), colorType: ihdr[9]!, types, raw: inflateSync(Buffer.concat(idat)) };
}

/** Bitwise CRC-32, independent of the encoder's zlib.crc32. */
function zlibCrc(data: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of data) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

let dir: string;
let app: FastifyInstance;
const thumbPng = encodePng({ width: 2, height: 2, channels: 4, data: new Uint8Array([255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 9, 9, 9, 128]) });
const svg = '<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"><rect width="4" height="4" fill="#c33"/></svg>';

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'vitrine-thumb-'));
  await writeFile(path.join(dir, 'thumb.png'), thumbPng);
  await writeFile(path.join(dir, 'thumb.jpg'), Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3]));
  await writeFile(path.join(dir, 'no-extension'), thumbPng);
  app = catalogTestApp([
    staticRecord('png', { thumbnail: { kind: 'file', path: path.join(dir, 'thumb.png') }, thumbnail_file: 'thumb.png' }),
    staticRecord('jpg', { thumbnail: { kind: 'file', path: path.join(dir, 'thumb.jpg') } }),
    staticRecord('sniffed', { thumbnail: { kind: 'file', path: path.join(dir, 'no-extension') } }),
    staticRecord('missing-file', { thumbnail: { kind: 'file', path: path.join(dir, 'gone.png') } }),
    staticRecord('none'),
    staticRecord('b64', { thumbnail: { kind: 'data-uri', uri: `data:image/png;base64,${thumbPng.toString('base64')}` } }),
    staticRecord('b64-no-type', { thumbnail: { kind: 'data-uri', uri: `data:;base64,${thumbPng.toString('base64')}` } }),
    staticRecord('pct-svg', { thumbnail: { kind: 'data-uri', uri: `data:image/svg+xml,${encodeURIComponent(svg)}` } }),
    staticRecord('bad-b64', { thumbnail: { kind: 'data-uri', uri: 'data:image/png;base64,***not base64***' } }),
    staticRecord('bad-pct', { thumbnail: { kind: 'data-uri', uri: 'data:image/svg+xml,%ZZ' } }),
    staticRecord('not-image', { thumbnail: { kind: 'data-uri', uri: 'data:text/html,%3Cscript%3Ealert(1)%3C/script%3E' } }),
    staticRecord('empty-uri', { thumbnail: { kind: 'data-uri', uri: 'data:image/png;base64,' } }),
    staticRecord('remote', {
      thumbnail: { kind: 'remote', fetch: async () => ({ contentType: 'image/png', length: thumbPng.length, body: Readable.from([thumbPng]) }) },
    }),
  ]);
  await app.ready();
});

afterAll(async () => {
  await app.close();
  await rm(dir, { recursive: true, force: true });
});

describe('sendThumbnail', () => {
  it('streams a file with its image type, length, cache headers and an ETag', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/specimens/png/thumbnail' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.headers['content-length']).toBe(String(thumbPng.length));
    expect(res.headers['cache-control']).toBe('public, max-age=60');
    expect(res.headers.etag).toMatch(/^W\/"[0-9a-f]+-[0-9a-f]+"$/);
    expect(res.rawPayload.equals(thumbPng)).toBe(true);
  });

  it('answers HEAD with the GET headers and no body', async () => {
    for (const id of ['png', 'none', 'b64']) {
      const head = await app.inject({ method: 'HEAD', url: `/api/specimens/${id}/thumbnail` });
      const get = await app.inject({ method: 'GET', url: `/api/specimens/${id}/thumbnail` });
      expect(head.statusCode, id).toBe(200);
      expect(head.headers['content-length'], id).toBe(get.headers['content-length']);
      expect(head.rawPayload.length, id).toBe(0);
    }
  });

  it('answers 304 to a matching If-None-Match', async () => {
    const first = await app.inject({ method: 'GET', url: '/api/specimens/png/thumbnail' });
    const again = await app.inject({ method: 'GET', url: '/api/specimens/png/thumbnail', headers: { 'if-none-match': String(first.headers.etag) } });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload.length).toBe(0);
    const other = await app.inject({ method: 'GET', url: '/api/specimens/png/thumbnail', headers: { 'if-none-match': '"something-else"' } });
    expect(other.statusCode).toBe(200);
  });

  it('takes the type from the extension, or from the bytes when there is none', async () => {
    expect((await app.inject({ method: 'GET', url: '/api/specimens/jpg/thumbnail' })).headers['content-type']).toBe('image/jpeg');
    expect((await app.inject({ method: 'GET', url: '/api/specimens/sniffed/thumbnail' })).headers['content-type']).toBe('image/png');
  });

  it('serves a valid placeholder PNG when there is no thumbnail or its file is missing', async () => {
    for (const id of ['none', 'missing-file']) {
      const res = await app.inject({ method: 'GET', url: `/api/specimens/${id}/thumbnail` });
      expect(res.statusCode, id).toBe(200);
      expect(res.headers['content-type']).toBe('image/png');
      expect(res.headers['content-length']).toBe(String(res.rawPayload.length));
      const png = readPng(res.rawPayload);
      expect(png.types[0]).toBe('IHDR');
      expect(png.types.at(-1)).toBe('IEND');
      expect([png.width, png.height]).toEqual([64, 64]);
      // RGB: 64 rows of 1 filter byte + 64*3 bytes.
      expect(png.colorType).toBe(2);
      expect(png.raw.length).toBe(64 * (1 + 64 * 3));
    }
    expect(placeholderPng().equals((await app.inject({ method: 'GET', url: '/api/specimens/none/thumbnail' })).rawPayload)).toBe(true);
  });

  it('decodes base64 data URIs on the server', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/specimens/b64/thumbnail' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.headers['content-length']).toBe(String(thumbPng.length));
    expect(res.rawPayload.equals(thumbPng)).toBe(true);
    const sniffed = await app.inject({ method: 'GET', url: '/api/specimens/b64-no-type/thumbnail' });
    expect(sniffed.headers['content-type']).toBe('image/png');
    expect(sniffed.rawPayload.equals(thumbPng)).toBe(true);
  });

  it('decodes percent-encoded data URIs, with a locked-down SVG', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/specimens/pct-svg/thumbnail' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/svg+xml');
    expect(res.body).toBe(svg);
    expect(res.headers['content-security-policy']).toContain('sandbox');
  });

  it.each(['bad-b64', 'bad-pct', 'not-image', 'empty-uri'])('answers SPC_ERR_THUMBNAIL_INVALID for %s', async (id) => {
    const res = await app.inject({ method: 'GET', url: `/api/specimens/${id}/thumbnail` });
    expect(res.statusCode).toBe(500);
    expect(res.json().code).toBe('SPC_ERR_THUMBNAIL_INVALID');
  });

  it('pipes a remote thumbnail with its content type', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/specimens/remote/thumbnail' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.headers['content-length']).toBe(String(thumbPng.length));
    expect(res.rawPayload.equals(thumbPng)).toBe(true);
  });
});

describe('encodePng', () => {
  it('round-trips pixels through the filters', () => {
    const data = new Uint8Array(7 * 5 * 3).map((_, i) => (i * 37) % 251);
    const png = readPng(encodePng({ width: 7, height: 5, channels: 3, data }));
    expect([png.width, png.height, png.colorType]).toEqual([7, 5, 2]);
    // Undo the per-row filters and compare.
    const stride = 7 * 3;
    const out = new Uint8Array(data.length);
    for (let y = 0; y < 5; y++) {
      const filter = png.raw[y * (stride + 1)]!;
      for (let x = 0; x < stride; x++) {
        const v = png.raw[y * (stride + 1) + 1 + x]!;
        const a = x >= 3 ? out[y * stride + x - 3]! : 0;
        const b = y > 0 ? out[(y - 1) * stride + x]! : 0;
        const c = x >= 3 && y > 0 ? out[(y - 1) * stride + x - 3]! : 0;
        const p = a + b - c;
        const pr = Math.abs(p - a) <= Math.abs(p - b) && Math.abs(p - a) <= Math.abs(p - c) ? a : Math.abs(p - b) <= Math.abs(p - c) ? b : c;
        const pred = [0, a, b, (a + b) >> 1, pr][filter]!;
        out[y * stride + x] = (v + pred) & 0xff;
      }
    }
    expect(Array.from(out)).toEqual(Array.from(data));
  });

  it('rejects a data length that does not match the size', () => {
    expect(() => encodePng({ width: 2, height: 2, channels: 3, data: new Uint8Array(5) })).toThrow(RangeError);
  });
});
