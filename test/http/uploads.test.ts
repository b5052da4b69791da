/**
 * POST /api/uploads over HTTP: each format parsed into its type and usable as an input;
 * content ids; the limits (size, extension, TTL, budget, --uploads off); and every file that
 * must be refused, with nothing stored and the host still serving.
 */
import type { FastifyInstance } from 'fastify';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { uploadId } from '../../core/uploads/upload-store.ts';
import { createTestApp, fileTestApp, room } from '../helpers/create-test-app.ts';
import { inputPluginsDir } from '../helpers/input-plugins.ts';
import { npyBytes } from '../helpers/specimens-dir.ts';
import { asciiPlyCloud, asciiStl, binaryPlyTriangle, binaryStl, glbTriangle, OBJ_SQUARE, png } from '../helpers/upload-files.ts';
import { waitFor } from '../helpers/wait-for.ts';
import type { CreateAppOptions } from '../../core/app.ts';
import { Validator } from '@seriousme/openapi-schema-validator';
import { parseServeOptions } from '../../core/cli/serve-options.ts';
import { hostContextOf } from '../../core/assembly/host-internals.ts';

/** A host of its own for a case that sets an option. */
async function app(options: CreateAppOptions): Promise<FastifyInstance> {
  return createTestApp({ pluginsDir: await inputPluginsDir(), ...options });
}

/**
 * One host for the cases that take the defaults (a host costs more to start than most cases
 * take): an upload is kept under its content id, so each case's files are its own.
 */
const shared = fileTestApp(async () => ({ pluginsDir: await inputPluginsDir() }));

function upload(host: FastifyInstance, filename: string, body: Buffer | Readable, headers: Record<string, string> = {}) {
  return host.inject({
    method: 'POST',
    url: `/api/uploads?filename=${encodeURIComponent(filename)}`,
    headers: { 'content-type': 'application/octet-stream', ...headers },
    payload: body,
  });
}

async function invoke(host: FastifyInstance, name: string, kwargs: Record<string, unknown>) {
  return host.inject({ method: 'POST', url: '/api/processing/invoke', payload: { function_name: name, kwargs, room_id: room() } });
}

describe('uploads', () => {
  it('stores an .npy volume under its content id and passes it as an input', async () => {
    const host = shared.app;
    const bytes = npyBytes([2, 2, 2]);
    const res = await upload(host, 'ramp.npy', bytes);
    expect(res.statusCode, res.body).toBe(200);
    const info = res.json();
    expect(info).toEqual({ upload_id: uploadId(bytes, '.npy'), type: 'volume', bytes: bytes.length, expires_in: 3600 });
    expect((await upload(host, 'other-name.npy', bytes)).json().upload_id).toBe(info.upload_id);
    const measured = await invoke(host, 'measure', { volume: { upload: info.upload_id } });
    expect(measured.statusCode, measured.body).toBe(200);
    expect(measured.json().vertices).toEqual([2, 2, 2, 28, 8, -1, 1, 1, 0]);
  });

  it('reads a big-endian .npy, and a body sent without a Content-Length, as the same volume', async () => {
    const host = shared.app;
    const little = npyBytes([2, 2, 2]);
    const big = Buffer.from(little.toString('latin1').replace("'<f4'", "'>f4'"), 'latin1');
    big.subarray(big.length - 32).swap32();
    const sums: number[] = [];
    for (const [name, body, headers] of [
      ['big.npy', big, {}],
      ['chunked.npy', Readable.from([little.subarray(0, 50), little.subarray(50)]), { 'transfer-encoding': 'chunked' }],
    ] as const) {
      const res = await upload(host, name, body, headers);
      expect(res.statusCode, res.body).toBe(200);
      const measured = await invoke(host, 'measure', { volume: { upload: res.json().upload_id } });
      expect(measured.statusCode, measured.body).toBe(200);
      sums.push(measured.json().vertices[3]);
    }
    expect(sums).toEqual([28, 28]);
    expect((await upload(host, 'again.npy', little)).json().upload_id).toBe(uploadId(little, '.npy'));
  });

  const meshes: [string, () => Buffer | Promise<Buffer>, number, number][] = [
    ['cube.stl', () => binaryStl(), 8, 12],
    ['cube-ascii.stl', () => asciiStl(), 8, 12],
    ['square.obj', () => OBJ_SQUARE, 4, 2],
    ['tri.ply', () => binaryPlyTriangle(), 3, 1],
    ['tri.glb', () => glbTriangle(), 3, 1],
  ];
  for (const [name, make, vertexCount, triangles] of meshes) {
    it(`parses ${name} as a mesh input`, async () => {
      const host = shared.app;
      const res = await upload(host, name, await make());
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().type).toBe('mesh');
      const counted = await invoke(host, 'count_mesh', { mesh: { upload: res.json().upload_id } });
      expect(counted.statusCode, counted.body).toBe(200);
      expect(counted.json().vertices.slice(0, 3)).toEqual([vertexCount, triangles, 1]);
    });
  }

  it('parses a PLY without faces as a point cloud and a PNG as an image, and refuses them for a mesh input', async () => {
    const host = shared.app;
    const cloud = await upload(host, 'cloud.ply', asciiPlyCloud(5));
    expect(cloud.json()).toMatchObject({ type: 'point_cloud' });
    const image = await upload(host, 'picture.PNG', png(4, 3));
    expect(image.json()).toMatchObject({ type: 'image' });
    for (const id of [cloud.json().upload_id, image.json().upload_id]) {
      const res = await invoke(host, 'count_mesh', { mesh: { upload: id } });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'SPC_ERR_INPUT_TYPE' });
      expect(res.json().detail).toMatch(/input 'mesh' takes a mesh/);
    }
  });

  it('takes bodies past the JSON body limit and counts them toward the result budget', async () => {
    const host = shared.app;
    const before = (await host.inject({ url: '/api/processing/cache/stats' })).json().total_bytes;
    await upload(host, 'big.npy', npyBytes([64, 64, 80]));
    const after = (await host.inject({ url: '/api/processing/cache/stats' })).json().total_bytes;
    expect(after - before).toBe(64 * 64 * 80 * 4);
  });

  it('expires an upload after --upload-ttl', async () => {
    const host = await app({ uploadTtlSeconds: 1 });
    const id = (await upload(host, 'ramp.npy', npyBytes([2, 2, 2]))).json().upload_id;
    expect((await invoke(host, 'measure', { volume: { upload: id } })).statusCode).toBe(200);
    const gone = await waitFor(async () => {
      const res = await invoke(host, 'measure', { volume: { upload: id } });
      return res.statusCode === 400 ? res.json() : undefined;
    }, 'the upload to expire');
    expect(gone).toMatchObject({ code: 'SPC_ERR_INPUT_UNKNOWN' });
  });

  it('answers 404 with --uploads off, and leaves the route out of /openapi.json', async () => {
    const host = await app({ uploads: false });
    const res = await upload(host, 'ramp.npy', npyBytes([2, 2, 2]));
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: 'SPC_ERR_UPLOADS_OFF' });
    expect(Object.keys((await host.inject({ url: '/openapi.json' })).json().paths)).not.toContain('/api/uploads');
  });

  it('is in /openapi.json with a file body, and the document stays valid', async () => {
    const host = shared.app;
    const doc = (await host.inject({ url: '/openapi.json' })).json();
    expect((await new Validator().validate(doc)).errors ?? []).toEqual([]);
    const post = doc.paths['/api/uploads'].post;
    expect(Object.keys(post.requestBody.content)).toEqual(['application/octet-stream', 'multipart/form-data']);
    expect(post.requestBody.content['application/octet-stream'].schema).toEqual({ type: 'string', format: 'binary' });
    expect(post.requestBody.content['multipart/form-data'].schema.properties.file).toMatchObject({ type: 'string', format: 'binary' });
    expect(post.responses['200'].content['application/json'].schema.required).toEqual(['upload_id', 'type', 'bytes', 'expires_in']);
    expect(post.responses['4XX'].content['application/json'].schema.$ref).toBe('#/components/schemas/Error');
  });
});

describe('upload options', () => {
  it('reads --uploads, --max-upload-bytes and --upload-ttl from flags and VITRINE_ variables', () => {
    expect(parseServeOptions(['--uploads', 'off', '--max-upload-bytes', '1000', '--upload-ttl', '5']).host_options).toMatchObject({
      uploads: false,
      maxUploadBytes: 1000,
      uploadTtlSeconds: 5,
    });
    expect(parseServeOptions([], { VITRINE_UPLOADS: 'off', VITRINE_MAX_UPLOAD_BYTES: '42', VITRINE_UPLOAD_TTL: '60' }).host_options).toMatchObject({
      uploads: false,
      maxUploadBytes: 42,
      uploadTtlSeconds: 60,
    });
    expect(parseServeOptions([]).host_options.uploads).toBeUndefined();
    expect(() => parseServeOptions(['--uploads', 'maybe'])).toThrow(/--uploads must be on or off/);
    expect(() => parseServeOptions(['--max-upload-bytes', 'lots'])).toThrow(/max-upload-bytes/);
  });
});

describe('upload refusals', () => {
  it('refuses a body past --max-upload-bytes from its Content-Length, and while streaming one without', async () => {
    const host = await app({ maxUploadBytes: 1000 });
    const declared = await upload(host, 'big.npy', npyBytes([10, 10, 10]));
    expect(declared.statusCode).toBe(413);
    expect(declared.json()).toMatchObject({ code: 'SPC_ERR_UPLOAD_TOO_LARGE' });
    expect(declared.json().detail).toMatch(/1000-byte limit/);
    const streamed = await upload(host, 'big.npy', Readable.from([npyBytes([10, 10, 10])]), { 'transfer-encoding': 'chunked' });
    expect(streamed.statusCode).toBe(413);
    expect(streamed.json()).toMatchObject({ code: 'SPC_ERR_UPLOAD_TOO_LARGE' });
  });

  it('refuses an upload larger than the whole result budget', async () => {
    const host = await app({ cacheMaxBytes: 1000 });
    const res = await upload(host, 'big.npy', npyBytes([10, 10, 10]));
    expect(res.statusCode).toBe(413);
    expect(await hostContextOf(host).uploads!.typeOf(uploadId(npyBytes([10, 10, 10]), '.npy'))).toBeNull();
  });

  it('answers 415 for an unknown extension or a body that is not application/octet-stream', async () => {
    const host = shared.app;
    const txt = await upload(host, 'notes.txt', Buffer.from('hello'));
    expect(txt.statusCode).toBe(415);
    expect(txt.json()).toMatchObject({ code: 'SPC_ERR_UPLOAD_FORMAT' });
    expect(txt.json().detail).toMatch(/notes\.txt.*\.npy, \.stl/);
    const json = await host.inject({ method: 'POST', url: '/api/uploads?filename=a.npy', payload: { a: 1 } });
    expect(json.statusCode).toBe(415);
  });

  it('answers 400 without a filename', async () => {
    const host = shared.app;
    const res = await host.inject({ method: 'POST', url: '/api/uploads', headers: { 'content-type': 'application/octet-stream' }, payload: Buffer.from('x') });
    expect(res.statusCode).toBe(400);
    expect(res.json().detail).toMatch(/filename/);
  });

  const npy = npyBytes([4, 4, 4]);
  const nan = Buffer.from(npy);
  nan.writeFloatLE(Number.NaN, nan.length - 8);
  const infinite = Buffer.from(npy);
  infinite.writeFloatLE(-Infinity, infinite.length - 12);
  const nanStl = binaryStl();
  nanStl.writeFloatLE(Number.NaN, 84 + 3 * 50 + 12 + 4 * 4);
  const huge = Buffer.from(npy.toString('latin1').replace('(4, 4, 4)', '(1048576, 1048576, 1)'), 'latin1');
  const stl = binaryStl();
  const lyingStl = Buffer.from(stl);
  lyingStl.writeUInt32LE(1 << 30, 80);
  const pngBytes = png(8, 8);
  const bad: [string, string, Buffer | (() => Promise<Buffer>), RegExp][] = [
    ['a truncated .npy', 'v.npy', npy.subarray(0, npy.length - 10), /declares shape \(4, 4, 4\): 256 bytes of data, but the file holds 246/],
    ['an .npy header declaring 2^40 elements', 'v.npy', huge, /declares shape \(1048576, 1048576, 1\): 4398046511104 bytes/],
    ['a NaN-laden .npy', 'v.npy', nan, /not a finite number/],
    ['an .npy with an infinity', 'v.npy', infinite, /the data holds a value that is not a finite number \(index 61\)/],
    ['a binary STL with a NaN corner', 'c.stl', nanStl, /a vertex holds a value that is not a finite number \(index 31\)/],
    ['an .npy with a broken header', 'v.npy', Buffer.from('\x93NUMPY garbage'), /.npy|header/],
    ['a truncated binary STL', 'c.stl', stl.subarray(0, stl.length - 7), /declares 12 triangles \(684 bytes\) but the file holds 677/],
    ['an STL lying about its triangle count', 'c.stl', lyingStl, /declares 1073741824 triangles/],
    ['an ASCII STL cut short', 'c.stl', asciiStl().subarray(0, 300), /endsolid|truncated/],
    ['an OBJ face naming a missing vertex', 'o.obj', Buffer.from('v 0 0 0\nv 1 0 0\nf 1 2 9\n'), /face corner '9' names no vertex/],
    ['an OBJ with a NaN', 'o.obj', Buffer.from('v 0 nan 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n'), /not a finite number/],
    ['a PLY declaring more vertices than it holds', 'p.ply', binaryPlyTriangle(1_000_000), /declares at least 12000001 bytes/],
    ['a truncated PNG', 'i.png', pngBytes.subarray(0, pngBytes.length - 20), /./],
    [
      'a GLB whose length lies',
      't.glb',
      async () => {
        const b = await glbTriangle();
        b.writeUInt32LE(b.length + 100, 8);
        return b;
      },
      /declares \d+ bytes, but the file holds/,
    ],
    ['an empty file', 'e.stl', Buffer.alloc(0), /empty/],
  ];
  for (const [what, name, body, why] of bad) {
    it(`refuses ${what} with a 400 saying why, storing nothing`, async () => {
      const host = shared.app;
      const bytes = typeof body === 'function' ? await body() : body;
      const res = await upload(host, name, bytes);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toMatchObject({ status_code: 400, code: 'SPC_ERR_UPLOAD_INVALID' });
      expect(res.json().detail).toMatch(why);
      expect(await hostContextOf(host).uploads!.typeOf(uploadId(bytes, name.slice(name.lastIndexOf('.'))))).toBeNull();
      expect((await host.inject({ url: '/healthz' })).statusCode).toBe(200);
    });
  }
});
