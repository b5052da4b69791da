/**
 * The mesh source is a route per kind of key: the OpenAPI document lists each as a path of its
 * own, each answers its file for a small labels volume, and a key that names no file (numbers
 * that are not digits, too many parts, `zarr.json` outside the store, a coarse bundle past the
 * list) is a 404 naming the key, after the result itself is found.
 */
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { encodeNpy } from '../../core/formats/npy/encode-npy.ts';
import { createTestApp } from '../helpers/create-test-app.ts';

const N = 24;
/** One ball of label 4. */
function ball(): Uint8Array {
  const data = new Uint8Array(N * N * N);
  for (let z = 0; z < N; z++) for (let y = 0; y < N; y++) for (let x = 0; x < N; x++) if (Math.hypot(x - 12, y - 12, z - 12) < 8) data[(z * N + y) * N + x] = 4;
  return data;
}

async function labelsId(host: FastifyInstance): Promise<string> {
  const npy = encodeNpy({ shape: [N, N, N], dtype: 'uint8', data: ball() } as never);
  const headers = { 'content-type': 'application/octet-stream' };
  const put = await host.inject({ method: 'PUT', url: '/api/specimens/ball?filename=ball.npy&role=labels', headers, payload: Buffer.from(npy) });
  expect(put.statusCode, put.body).toBe(201);
  const data = await host.inject({ url: '/api/specimens/ball/data' });
  expect(data.statusCode, data.body).toBe(200);
  return String(data.headers['x-result-id']);
}

const KINDS = ['info', 'segments.json', 'zarr.json', 'coarse/{k}', '{segment}.index', '{segment}.json', '{segment}'];
KINDS.push('{segment}/{level}.json', '{segment}/{level}/{fragment}.glb', '{segment}/{level}');

describe('the mesh source as a route per kind of key', () => {
  it('lists each kind of key as a path of its own in the OpenAPI document', async () => {
    const host = await createTestApp();
    const doc = (await host.inject({ url: '/openapi.json' })).json() as { paths: Record<string, { get?: { summary?: string } }> };
    const paths = Object.keys(doc.paths).filter((path) => path.startsWith('/api/results/{id}/meshes/'));
    expect(paths.map((path) => path.slice('/api/results/{id}/meshes/'.length)).sort()).toEqual([...KINDS].sort());
    for (const path of paths) expect(doc.paths[path]!.get?.summary, path).toBeTruthy();
  });

  it('answers every kind for a labels result, and a key naming no file 404 after the result is found', async () => {
    const host = await createTestApp();
    const id = await labelsId(host);
    const base = `/api/results/${id}/meshes`;
    const answers = await Promise.all(
      ['info', 'segments.json', 'coarse/0', '4.index', '4.json', '4', '4/0.json', '4/0/0.glb', '4/0'].map((key) => host.inject({ url: `${base}/${key}` })),
    );
    for (const answer of answers) expect(answer.statusCode, answer.body).toBe(200);
    expect((await host.inject({ url: `/api/results/${id}.zarr/meshes/zarr.json` })).statusCode).toBe(200);
    for (const key of ['zarr.json', 'x.index', '4x', '4/x.json', '4/0/x.glb', '4/123/0.glb', 'coarse/x', 'coarse/9', '4/0/0/0', '12345678901', '5']) {
      const answer = await host.inject({ url: `${base}/${key}` });
      expect(answer.statusCode, key).toBe(404);
      expect(answer.json().code, key).toMatch(/^SPC_ERR_(MESH_KEY|SEGMENT)_NOT_FOUND$/);
    }
    const unknown = await host.inject({ url: `/api/results/${'0'.repeat(id.length)}/meshes/4/x.json` });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().code).toBe('SPC_ERR_RESULT_ID_NOT_FOUND');
  });
});
