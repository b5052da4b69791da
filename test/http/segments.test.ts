/**
 * Labels through `/data`: the envelope says `labels`, `segment=N` answers label N's surface as
 * a mesh in physical units (made once: a second request is the same bytes under the same blob
 * id and makes nothing), every mesh export applies to it, `segment=all` paints each label,
 * the Godot client gets a uint8 volume of picked ids and surfaces within its triangle budget,
 * and a `segment` that does not fit is a 4xx naming it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { createApp } from '../../core/app.ts';
import { decodeEnvelope, type DecodedMesh, type DecodedVolume } from '../../core/envelope/decode-envelope.ts';
import { addDynamicSpecimen, room } from '../helpers/create-test-app.ts';
import { fixturePluginsDir } from '../helpers/fixture-plugins.ts';
import { makeSpecimensDir } from '../helpers/specimens-dir.ts';

const GODOT = { 'user-agent': 'GodotEngine/4.3.stable (Ascribe-XR)' };
/** label_blobs of size 40: spacing [0.5, 0.25, 0.25], origin [10, 20, 30] (z, y, x). */
const PARAMS = encodeURIComponent(JSON.stringify({ size: 40, count: 6, dtype: 'uint16', stride: 100 }));

describe('segments of a labels volume', () => {
  let app: FastifyInstance;
  let lab: string;
  const data = (query = '', headers: Record<string, string> = {}) =>
    app.inject({ url: `/api/specimens/blobs/data?params=${PARAMS}&room_id=${lab}${query}`, headers });
  beforeAll(async () => {
    app = await createApp({ pluginsDir: await fixturePluginsDir(), specimensDir: await makeSpecimensDir(), logLevel: false, poolSize: 2, viewer: false });
    addDynamicSpecimen(app, 'blobs', 'label_blobs');
    addDynamicSpecimen(app, 'plain', 'sized_volume');
    lab = room();
  });
  afterAll(() => app.close());

  it('sends the volume as labels, and label 100 as a closed mesh inside its box in physical units', async () => {
    const volume = decodeEnvelope((await data()).rawPayload) as DecodedVolume;
    expect(volume).toMatchObject({
      dtype: 'uint16',
      labels: true,
      label_names: { '100': 'first blob', '200': 'second blob' },
      label_colors: { '100': '#ff0000' },
    });
    const voxels: number[][] = [];
    volume.data.forEach((v, i) => v === 100 && voxels.push([i % 40, Math.floor(i / 40) % 40, Math.floor(i / 1600)]));
    const answer = await data('&segment=100');
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['x-blob-id']).toMatch(/^[0-9a-f]{64}\./);
    const mesh = decodeEnvelope(answer.rawPayload) as DecodedMesh;
    expect(mesh.type).toBe('mesh');
    expect(mesh.normals).not.toBeNull();
    // Voxel (z, y, x) sits at origin + index × spacing: the surface stays within half a voxel of them.
    const [spacing, origin] = [[0.25, 0.25, 0.5], [30, 20, 10]];
    for (let axis = 0; axis < 3; axis++) {
      const along = voxels.map((v) => origin[axis]! + v[axis]! * spacing[axis]!);
      const coords = Array.from(mesh.vertices.filter((_, i) => i % 3 === axis));
      expect(Math.min(...coords)).toBeGreaterThanOrEqual(Math.min(...along) - spacing[axis]! / 2 - 1e-5);
      expect(Math.max(...coords)).toBeLessThanOrEqual(Math.max(...along) + spacing[axis]! / 2 + 1e-5);
    }
  });

  it('makes a surface once: the same id is the same bytes, from /data and from its blob URL', async () => {
    const first = await data('&segment=200');
    const made = app.vitrine.variantsMade();
    const again = await data('&segment=200');
    expect(app.vitrine.variantsMade()).toBe(made);
    expect(again.headers['x-blob-id']).toBe(first.headers['x-blob-id']);
    expect(Buffer.compare(again.rawPayload, first.rawPayload)).toBe(0);
    const blob = await app.inject(`/api/blobs/${first.headers['x-blob-id']}`);
    expect(blob.statusCode).toBe(200);
    expect(Buffer.compare(blob.rawPayload, first.rawPayload)).toBe(0);
  });

  it('exports a surface as GLB, STL, OBJ, PLY and simplified, and every label painted with segment=all', async () => {
    const glb = await data('&segment=100&format=glb');
    expect(glb.headers['content-type']).toBe('model/gltf-binary');
    expect(glb.headers['content-disposition']).toContain('.glb');
    expect(glb.rawPayload.subarray(0, 4).toString('latin1')).toBe('glTF');
    expect((await data('&segment=100&format=stl')).rawPayload.readUInt32LE(80)).toBeGreaterThan(100);
    expect((await data('&segment=100&format=obj')).payload).toMatch(/^v /m);
    expect((await data('&segment=all&format=ply')).rawPayload.subarray(0, 400).toString('latin1')).toMatch(/property uchar red[\s\S]*element face \d+/);
    const blob = await app.inject(`/api/blobs/${glb.headers['x-blob-id']}`);
    expect(Buffer.compare(blob.rawPayload, glb.rawPayload)).toBe(0);
    const small = decodeEnvelope((await data('&segment=100&max_triangles=200')).rawPayload) as DecodedMesh;
    expect(small.indices.length / 3).toBeLessThanOrEqual(200);
    const all = decodeEnvelope((await data('&segment=all')).rawPayload) as DecodedMesh;
    const one = decodeEnvelope((await data('&segment=100')).rawPayload) as DecodedMesh;
    expect(all.indices.length).toBeGreaterThan(one.indices.length);
    const colours = new Set<string>();
    for (let v = 0; v < all.colors!.length; v += 3) colours.add(Array.from(all.colors!.subarray(v, v + 3)).join(','));
    expect(colours.has('255,0,0')).toBe(true);
    expect(colours.size).toBeGreaterThanOrEqual(4);
  });

  it('gives the Godot client picked uint8 ids and surfaces within its triangle budget', async () => {
    const full = decodeEnvelope((await data()).rawPayload) as DecodedVolume;
    const godot = decodeEnvelope((await data('', GODOT)).rawPayload) as DecodedVolume;
    expect(godot).toMatchObject({ dtype: 'uint8', labels: true, shape: [40, 40, 40] });
    // Ids 100..600 (past 255 from 300) are numbered 1..6 in order, voxel for voxel; the names follow them.
    expect(Array.from(godot.data)).toEqual(Array.from(full.data, (id) => id / 100));
    expect(godot.label_names).toEqual({ '1': 'first blob', '2': 'second blob' });
    const surface = await app.inject({ url: `/api/specimens/blobs/data?params=${PARAMS}&room_id=${lab}&segment=all`, headers: GODOT });
    expect((decodeEnvelope(surface.rawPayload) as DecodedMesh).type).toBe('mesh');
  });

  it('refuses a segment that does not fit, naming it', async () => {
    const cases: [string, number, RegExp][] = [
      ['&segment=1.5', 400, /'segment'.*label id/],
      ['&segment=0', 400, /'segment'.*background/],
      ['&segment=abc', 400, /'segment'/],
      ['&segment=70000', 400, /'segment'.*past the largest id a uint16/],
      ['&segment=150', 404, /segment 150: no voxel.*holds 6 labels: 100, 200/],
      ['&segment=100&dtype=uint8', 400, /'dtype'.*segment/],
    ];
    for (const [query, status, detail] of cases) {
      const answer = await data(query);
      expect([query, answer.statusCode]).toEqual([query, status]);
      expect(answer.json().detail).toMatch(detail);
    }
    const plain = await app.inject(`/api/specimens/plain/data?room_id=${lab}&segment=1`);
    expect(plain.statusCode).toBe(400);
    expect(plain.json().detail).toMatch(/'segment'.*not marked as labels/);
  });
});
