import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodePng } from '../../core/formats/png/encode-png.ts';
import { placeholderPng } from '../../core/catalog/placeholder-png.ts';
import { readPng } from '../formats/png-reader.ts';
import { catalogTestApp, staticRecord } from './helpers/catalog-test-app.ts';

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
      // RGB, 8 bits: 64 rows of 64*3 samples once unfiltered.
      expect([png.bitDepth, png.colorType]).toEqual([8, 2]);
      expect(png.pixels.length).toBe(64 * 64 * 3);
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
