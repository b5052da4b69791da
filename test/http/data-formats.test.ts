/**
 * `format` and `compress` on `/data` over real HTTP: each download format answers with its
 * media type and `attachment; filename="<specimen>.<ext>"`, and its bytes parse back (with the
 * same readers as the encoder tests) to the room's result; X-Result-Id names the result, not
 * the format. A format that does not fit the result type and `compress` without `glb` are
 * 400s naming the option, on GET and POST alike.
 */
import { NodeIO } from '@gltf-transform/core';
import { EXTMeshoptCompression, KHRMeshQuantization } from '@gltf-transform/extensions';
import type { FastifyInstance } from 'fastify';
import { MeshoptDecoder } from 'meshoptimizer';
import { PNG } from 'pngjs';
import { PLYLoader } from 'three/examples/jsm/loaders/PLYLoader.js';
import { STLLoader } from 'three/examples/jsm/loaders/STLLoader.js';
import { describe, expect, it } from 'vitest';
import { parseNpyHeader } from '../../core/formats/npy/npy-header.ts';
import { addDynamicSpecimen, createTestApp, room } from '../helpers/create-test-app.ts';

async function host(): Promise<{ app: FastifyInstance; url: string }> {
  const app = await createTestApp();
  addDynamicSpecimen(app, 'dyn-ramp', 'ramp');
  addDynamicSpecimen(app, 'dyn-cloud', 'cloud');
  addDynamicSpecimen(app, 'dyn-checker', 'checker');
  return { app, url: await app.listen({ host: '127.0.0.1', port: 0 }) };
}

function dataUrl(url: string, id: string, query: Record<string, string>, roomId: string): string {
  return `${url}/api/specimens/${id}/data?${new URLSearchParams({ ...query, room_id: roomId })}`;
}

async function download(url: string, id: string, query: Record<string, string>, roomId = room()) {
  const res = await fetch(dataUrl(url, id, query, roomId));
  expect(res.status, await res.clone().text().then((t) => t.slice(0, 200))).toBe(200);
  return { res, bytes: new Uint8Array(await res.arrayBuffer()) };
}

describe('download formats on /data', () => {
  it('mesh as GLB (plain and meshopt), STL and OBJ: media type, attachment name, bytes that parse back', async () => {
    const { url } = await host();
    const r = room();
    const envelope = await fetch(dataUrl(url, 'dyn-square', {}, r));
    await envelope.arrayBuffer();
    const resultId = envelope.headers.get('x-result-id');
    expect(resultId).toMatch(/^[0-9a-f]{64}$/);

    await MeshoptDecoder.ready;
    const io = new NodeIO().registerExtensions([EXTMeshoptCompression, KHRMeshQuantization]).registerDependencies({ 'meshopt.decoder': MeshoptDecoder });
    for (const compress of [undefined, 'meshopt']) {
      const { res, bytes } = await download(url, 'dyn-square', compress ? { format: 'glb', compress } : { format: 'glb' }, r);
      expect(res.headers.get('content-type')).toBe('model/gltf-binary');
      expect(res.headers.get('content-disposition')).toBe('attachment; filename="dyn-square.glb"');
      expect(res.headers.get('x-result-id')).toBe(resultId);
      const doc = await io.readBinary(bytes);
      const required = doc.getRoot().listExtensionsUsed().filter((e) => e.isRequired()).map((e) => e.extensionName).sort();
      expect(required).toEqual(compress ? ['EXT_meshopt_compression', 'KHR_mesh_quantization'] : []);
      const primitive = doc.getRoot().listMeshes()[0]!.listPrimitives()[0]!;
      // The fixture square: 2 triangles over 4 corners.
      expect(primitive.getIndices()!.getCount()).toBe(6);
      expect(primitive.getAttribute('POSITION')!.getCount()).toBe(4);
    }

    const stl = await download(url, 'dyn-square', { format: 'stl' }, r);
    expect(stl.res.headers.get('content-type')).toBe('model/stl');
    expect(stl.res.headers.get('content-disposition')).toBe('attachment; filename="dyn-square.stl"');
    expect(new STLLoader().parse(stl.bytes.slice().buffer).getAttribute('position').count).toBe(6);

    const obj = await download(url, 'dyn-square', { format: 'obj' }, r);
    expect(obj.res.headers.get('content-type')).toBe('model/obj');
    expect(obj.res.headers.get('content-disposition')).toBe('attachment; filename="dyn-square.obj"');
    const text = new TextDecoder().decode(obj.bytes);
    expect(text.match(/^v /gm)).toHaveLength(4);
    expect(text.match(/^f /gm)).toHaveLength(2);
  });

  it('volume as NPY, point cloud as PLY, image as PNG', async () => {
    const { url } = await host();
    const npy = await download(url, 'dyn-ramp', { format: 'npy', params: JSON.stringify({ n: 3 }) });
    expect(npy.res.headers.get('content-disposition')).toBe('attachment; filename="dyn-ramp.npy"');
    const header = parseNpyHeader(Buffer.from(npy.bytes));
    expect(header).toMatchObject({ descr: '<f4', shape: [3, 3, 3] });
    expect(Array.from(new Float32Array(npy.bytes.slice(header.dataOffset).buffer))).toEqual(Array.from({ length: 27 }, (_, i) => i));

    const ply = await download(url, 'dyn-cloud', { format: 'ply' });
    expect(ply.res.headers.get('content-disposition')).toBe('attachment; filename="dyn-cloud.ply"');
    const cloud = new PLYLoader().parse(ply.bytes.slice().buffer);
    expect(Array.from(cloud.getAttribute('position').array)).toEqual([0, 0, 0, 1, 2, 3, 2, 4, 6, 3, 6, 9, 4, 8, 12]);

    const png = await download(url, 'dyn-checker', { format: 'png' });
    expect(png.res.headers.get('content-type')).toBe('image/png');
    expect(png.res.headers.get('content-disposition')).toBe('attachment; filename="dyn-checker.png"');
    const image = PNG.sync.read(Buffer.from(png.bytes));
    expect([image.width, image.height]).toEqual([2, 2]);
    expect(Array.from(image.data.subarray(0, 8))).toEqual([0, 0, 0, 255, 255, 255, 255, 255]);
  });

  it('refuses a format of another result type and compress without glb, naming the option', async () => {
    const { url } = await host();
    const cases: [string, Record<string, string>, string][] = [
      ['dyn-square', { format: 'npy' }, 'format'],
      ['dyn-square', { format: 'png' }, 'format'],
      ['dyn-ramp', { format: 'glb' }, 'format'],
      ['dyn-cloud', { format: 'stl' }, 'format'],
      ['dyn-checker', { format: 'ply' }, 'format'],
      ['dyn-square', { compress: 'meshopt' }, 'compress'],
      ['dyn-square', { format: 'stl', compress: 'meshopt' }, 'compress'],
      ['dyn-ramp', { format: 'npy', compress: 'meshopt' }, 'compress'],
      ['dyn-square', { format: 'fbx' }, 'format'],
      ['dyn-square', { format: 'glb', compress: 'draco' }, 'compress'],
    ];
    for (const [id, query, named] of cases) {
      const res = await fetch(dataUrl(url, id, query, room()));
      const body = (await res.json()) as { status_code: number; detail: string; code: string };
      expect(res.status, JSON.stringify(query)).toBe(400);
      expect(body.code).toMatch(/^SPC_ERR_DELIVERY_OPTION_/);
      expect(body.detail).toContain(`'${named}'`);
    }
    const post = await fetch(`${url}/api/specimens/dyn-ramp/data`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ params: {}, delivery: { format: 'obj' } }),
    });
    expect(post.status).toBe(400);
    expect(((await post.json()) as { detail: string }).detail).toContain("'format'");
  });
});
