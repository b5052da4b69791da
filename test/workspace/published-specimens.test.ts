/**
 * Published specimens over real HTTP on one host: a file (or an upload) published under an id
 * is listed (a `catalog` event on the host stream) and served as a file specimen (a Godot client's uint8 volume envelope, a
 * thumbnail made from it); replacing answers 200, an id from elsewhere 409, DELETE 204; bad
 * input is a 4xx naming what is wrong; the time-to-live and the byte budget bound them; the
 * trust rules apply (cross-site 403, the admin token when the host has one).
 */
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { decodeEnvelope } from '../../core/envelope/decode-envelope.ts';
import { createTestApp } from '../helpers/create-test-app.ts';
import { openStream } from '../helpers/sse-reader.ts';
import { npyBytes } from '../helpers/specimens-dir.ts';
import { binaryStl, png } from '../helpers/upload-files.ts';
import { waitFor } from '../helpers/wait-for.ts';
import type { CreateAppOptions } from '../../core/app.ts';
import { parseServeOptions } from '../../core/cli/serve-options.ts';
import { resolveHostOptions } from '../../core/options.ts';
import { encodeNpy } from '../../core/formats/npy/encode-npy.ts';

const GODOT = { 'user-agent': 'GodotEngine/4.3.stable.official (Linux)' };
const OCTET = { 'content-type': 'application/octet-stream' };

async function host(options: CreateAppOptions = {}): Promise<string> {
  const app = await createTestApp(options);
  return app.listen({ host: '127.0.0.1', port: 0 });
}

function put(url: string, id: string, query: string, body: Buffer, headers: Record<string, string> = {}) {
  return fetch(`${url}/api/specimens/${id}?${query}`, { method: 'PUT', headers: { ...OCTET, ...headers }, body: new Uint8Array(body) });
}

async function detail(res: Response): Promise<string> {
  return ((await res.json()) as { detail: string }).detail;
}

describe('published specimens', () => {
  it('publishes a .npy volume: listed, served as an envelope (uint8 for Godot), a thumbnail of its middle slice; replaced, then deleted', async () => {
    const url = await host();
    const hostEvents = await openStream(`${url}/api/events`);
    await hostEvents.next((e) => e.event === 'hello');
    const bytes = npyBytes([4, 3, 5]);
    const created = await put(url, 'scan', 'filename=scan.npy&display_name=CT%20scan&tags=ct,lab&spacing=0.5,0.5,1', bytes);
    expect(created.status, await created.clone().text()).toBe(201);
    const meta = (await created.json()) as Record<string, unknown>;
    expect(meta).toMatchObject({
      id: 'scan',
      display_name: 'CT scan',
      type: 'volume',
      tags: ['ct', 'lab'],
      is_dynamic: false,
      function_name: null,
      data_file: 'scan.npy',
      expires_in: 86400,
    });

    expect((await hostEvents.next((e) => e.event === 'catalog')).data).toEqual({ specimens: ['scan'] });
    const catalog = (await (await fetch(`${url}/api/specimens`)).json()) as { id: string; thumbnail_url: string }[];
    expect(catalog.find((entry) => entry.id === 'scan')).toMatchObject({ type: 'volume', thumbnail_url: '/api/specimens/scan/thumbnail' });

    const plain = decodeEnvelope(new Uint8Array(await (await fetch(`${url}/api/specimens/scan/data`)).arrayBuffer()));
    expect(plain).toMatchObject({ type: 'volume', shape: [4, 3, 5], dtype: 'float32', spacing: [0.5, 0.5, 1] });
    const headset = await fetch(`${url}/api/specimens/scan/data`, { headers: GODOT });
    expect(headset.status).toBe(200);
    const envelope = decodeEnvelope(new Uint8Array(await headset.arrayBuffer()));
    expect(envelope).toMatchObject({ type: 'volume', shape: [4, 3, 5], dtype: 'uint8', value_range: [0, 59] });

    const thumbnail = await fetch(`${url}/api/specimens/scan/thumbnail`);
    expect(thumbnail.headers.get('content-type')).toBe('image/png');
    const thumbBytes = Buffer.from(await thumbnail.arrayBuffer());
    expect([thumbBytes.readUInt32BE(16), thumbBytes.readUInt32BE(20)]).toEqual([5, 3]);

    const replaced = await put(url, 'scan', 'filename=other.npy', npyBytes([2, 2, 2]));
    expect(replaced.status).toBe(200);
    expect(await replaced.json()).toMatchObject({ display_name: 'scan', data_file: 'other.npy', tags: [] });
    expect(decodeEnvelope(new Uint8Array(await (await fetch(`${url}/api/specimens/scan/data`)).arrayBuffer()))).toMatchObject({ shape: [2, 2, 2] });

    const beforeDelete = hostEvents.events.length;
    expect((await fetch(`${url}/api/specimens/scan`, { method: 'DELETE' })).status).toBe(204);
    expect((await hostEvents.next((e) => e.event === 'catalog', beforeDelete)).data).toEqual({ specimens: ['scan'] });
    hostEvents.close();
    expect((await fetch(`${url}/api/specimens/scan`)).status).toBe(404);
    const again = await fetch(`${url}/api/specimens/scan`, { method: 'DELETE' });
    expect(again.status).toBe(404);
    expect(await detail(again)).toBe("no published specimen 'scan'");
  });

  it('publishes an upload (a mesh as STL, an image as its own thumbnail), with fields from the JSON body and the query', async () => {
    const url = await host();
    const uploaded = (await (
      await fetch(`${url}/api/uploads?filename=cube.stl`, { method: 'POST', headers: OCTET, body: new Uint8Array(binaryStl()) })
    ).json()) as { upload_id: string };
    const res = await fetch(`${url}/api/specimens/cube?tags=query,tags&description=from%20the%20query`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ upload: uploaded.upload_id, display_name: 'Cube', description: 'from a notebook' }),
    });
    expect(res.status, await res.clone().text()).toBe(201);
    // Fields from the query and the body; the body's win.
    expect(await res.json()).toMatchObject({
      id: 'cube',
      display_name: 'Cube',
      description: 'from a notebook',
      tags: ['query', 'tags'],
      type: 'mesh',
      data_file: 'cube.stl',
    });
    const data = await fetch(`${url}/api/specimens/cube/data`);
    expect(data.headers.get('content-disposition')).toBe('attachment; filename="cube.stl"');
    expect(Buffer.from(await data.arrayBuffer()).readUInt32LE(80)).toBe(12);
    // Its thumbnail is drawn from it as `vitrine thumbnails` draws: the cube, seen nearly along
    // an axis, fills the middle in blue; the corners show the dark backdrop.
    const drawn = PNG.sync.read(Buffer.from(await (await fetch(`${url}/api/specimens/cube/thumbnail`)).arrayBuffer()));
    const rgb = (x: number, y: number) => [...drawn.data.subarray((y * drawn.width + x) * 4, (y * drawn.width + x) * 4 + 3)] as [number, number, number];
    const [middle, corner] = [rgb(128, 128), rgb(2, 2)];
    expect([drawn.width, drawn.height]).toEqual([256, 256]);
    expect(middle[2]).toBeGreaterThan(Math.max(middle[0], middle[1]) + 30);
    expect(Math.max(...corner)).toBeLessThan(40);

    const image = png(6, 4);
    expect((await put(url, 'picture', 'filename=picture.png', image)).status).toBe(201);
    const thumbnail = Buffer.from(await (await fetch(`${url}/api/specimens/picture/thumbnail`)).arrayBuffer());
    expect(thumbnail.equals(image)).toBe(true);
  });

  it('publishes a segmentation with role=labels (file or upload): labels in the catalog, the envelope and the segment surfaces', async () => {
    const url = await host();
    const data = new Uint16Array(6 * 6 * 6);
    data.fill(700, 0, 72);
    data[150] = 3;
    const bytes = Buffer.from(encodeNpy({ shape: [6, 6, 6], dtype: 'uint16', data }));
    const names = encodeURIComponent(JSON.stringify({ 700: 'membrane', 3: 'speck' }));
    const created = await put(url, 'seg', `filename=seg.npy&role=labels&label_names=${names}&label_colors=${encodeURIComponent('{"3":"#00FF00"}')}`, bytes);
    expect(created.status, await created.clone().text()).toBe(201);
    expect(await created.json()).toMatchObject({ id: 'seg', type: 'volume', labels: true });
    const catalog = (await (await fetch(`${url}/api/specimens`)).json()) as { id: string; labels?: boolean }[];
    expect(catalog.find((entry) => entry.id === 'seg')?.labels).toBe(true);
    const volume = decodeEnvelope(new Uint8Array(await (await fetch(`${url}/api/specimens/seg/data`)).arrayBuffer()));
    expect(volume).toMatchObject({ dtype: 'uint16', labels: true, label_names: { '3': 'speck', '700': 'membrane' }, label_colors: { '3': '#00ff00' } });
    const godot = decodeEnvelope(new Uint8Array(await (await fetch(`${url}/api/specimens/seg/data`, { headers: GODOT })).arrayBuffer()));
    expect(godot).toMatchObject({ dtype: 'uint8', labels: true, label_names: { '1': 'speck', '2': 'membrane' } });
    const surface = decodeEnvelope(new Uint8Array(await (await fetch(`${url}/api/specimens/seg/data?segment=700`)).arrayBuffer()));
    expect(surface.type).toBe('mesh');

    const uploaded = (await (await fetch(`${url}/api/uploads?filename=seg.npy`, { method: 'POST', headers: OCTET, body: new Uint8Array(bytes) })).json()) as {
      upload_id: string;
    };
    const json = { 'content-type': 'application/json' };
    const viaUpload = await fetch(`${url}/api/specimens/seg2`, {
      method: 'PUT',
      headers: json,
      body: JSON.stringify({ upload: uploaded.upload_id, role: 'labels', label_names: { 3: 'speck' } }),
    });
    expect(viaUpload.status).toBe(201);
    expect(decodeEnvelope(new Uint8Array(await (await fetch(`${url}/api/specimens/seg2/data`)).arrayBuffer()))).toMatchObject({
      labels: true,
      label_names: { '3': 'speck' },
    });

    const refusals: [Promise<Response>, RegExp][] = [
      [put(url, 'x', 'filename=x.npy&role=labels', npyBytes([2, 2, 2])), /'role' labels: labels needs a volume of dtype uint8, uint16 or uint32, not float32/],
      [put(url, 'x', 'filename=x.stl&role=labels', binaryStl()), /'role' labels needs a volume/],
      [put(url, 'x', 'filename=x.npy&role=segmentation', bytes), /'role' must be one of image, labels/],
      [put(url, 'x', `filename=x.npy&label_names=${names}`, bytes), /label_names is given but role is not labels/],
      [put(url, 'x', 'filename=x.npy&role=labels&label_colors=%7B%221%22%3A%22red%22%7D', bytes), /label_colors value of '1' is not a colour/],
      [put(url, 'x', 'filename=x.npy&role=labels&label_names=nope', bytes), /'label_names' must be a JSON object/],
    ];
    for (const [pending, pattern] of refusals) {
      const res = await pending;
      expect(res.status).toBe(400);
      expect(await detail(res)).toMatch(pattern);
    }
  });

  it('refuses what it cannot publish with a 4xx that says why, and keeps serving', async () => {
    const url = await host();
    const cases: [Promise<Response>, number, RegExp][] = [
      [put(url, 'tri', 'filename=x.stl', binaryStl()), 409, /specimen 'tri' is not a published specimen \(it comes from the specimens directory\)/],
      [fetch(`${url}/api/specimens/tri`, { method: 'DELETE' }), 409, /not a published specimen/],
      [put(url, 'x', '', binaryStl()), 400, /needs \?filename=NAME/],
      [put(url, 'x', 'filename=x.txt', binaryStl()), 415, /uploads must be one of/],
      [put(url, 'x', 'filename=x.stl', Buffer.from('solid nothing')), 400, /'x.stl' does not parse/],
      [put(url, 'x', 'filename=x.npy&spacing=1,2', npyBytes([2, 2, 2])), 400, /'spacing' must be three finite numbers/],
      [put(url, '.hidden', 'filename=x.stl', binaryStl()), 400, /is not a specimen id/],
      [put(url, 'reload', 'filename=x.stl', binaryStl()), 400, /'reload' is a word of the host's routes/],
      [put(url, 'TRI', 'filename=x.stl', binaryStl()), 409, /'TRI' differs only by case from the specimen 'tri'/],
      [
        fetch(`${url}/api/specimens/x`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: '{"upload":"nope"}' }),
        400,
        /upload 'nope' does not exist/,
      ],
      [fetch(`${url}/api/specimens/x`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: '{"file":"a"}' }), 400, /unknown field 'file'/],
      [fetch(`${url}/api/specimens/x`, { method: 'PUT', headers: { 'content-type': 'text/plain' }, body: 'a' }), 415, /request bodies must be JSON/],
    ];
    for (const [pending, status, pattern] of cases) {
      const res = await pending;
      expect(res.status).toBe(status);
      expect(await detail(res)).toMatch(pattern);
    }
    expect((await fetch(`${url}/api/specimens/x`)).status).toBe(404);
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
  });

  it('publishes a big-endian .npy volume: its data and its thumbnail are the file as written', async () => {
    const url = await host();
    expect((await put(url, 'big-endian', 'filename=be.npy', npyBytes([4, 4, 4], 'big'))).status).toBe(201);
    const thumbnail = await fetch(`${url}/api/specimens/big-endian/thumbnail`);
    expect(thumbnail.status).toBe(200);
    expect(thumbnail.headers.get('content-type')).toBe('image/png');
    const slice = PNG.sync.read(Buffer.from(await thumbnail.arrayBuffer()));
    expect([slice.width, slice.height]).toEqual([4, 4]);
    // The middle slice's values 32..47 span the grey range: first black, last white.
    expect([slice.data[0], slice.data[(4 * 4 - 1) * 4]]).toEqual([0, 255]);
    const volume = decodeEnvelope(new Uint8Array(await (await fetch(`${url}/api/specimens/big-endian/data`)).arrayBuffer()));
    expect(volume.type === 'volume' && [...(volume.data as Float32Array).slice(0, 3)]).toEqual([0, 1, 2]);
  });

  it('drops a published specimen after --published-ttl, and refuses one larger than the byte budget', async () => {
    const url = await host({ publishedTtlSeconds: 1, cacheMaxBytes: 4096 });
    expect((await put(url, 'brief', 'filename=brief.stl', binaryStl())).status).toBe(201);
    const big = await put(url, 'big', 'filename=big.npy', npyBytes([16, 16, 16]));
    expect(big.status).toBe(413);
    expect(await detail(big)).toMatch(/more than the host keeps/);
    await waitFor(async () => ((await fetch(`${url}/api/specimens/brief`)).status === 404 ? true : undefined), 'the published specimen to expire');
  });

  it('is a write: cross-site PUT and DELETE are 403; with an admin token, 401 without it and 201 with it', async () => {
    const open = await host();
    const crossSite = { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' };
    expect((await put(open, 'evil', 'filename=e.stl', binaryStl(), crossSite)).status).toBe(403);
    expect((await fetch(`${open}/api/specimens/tri`, { method: 'DELETE', headers: crossSite })).status).toBe(403);

    const guarded = await host({ adminToken: 'sesame' });
    const refused = await put(guarded, 'mine', 'filename=m.stl', binaryStl());
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toBe('Bearer');
    expect((await put(guarded, 'mine', 'filename=m.stl', binaryStl(), { authorization: 'Bearer wrong' })).status).toBe(403);
    expect((await put(guarded, 'mine', 'filename=m.stl', binaryStl(), { authorization: 'Bearer sesame' })).status).toBe(201);
    expect((await fetch(`${guarded}/api/specimens/mine`, { method: 'DELETE' })).status).toBe(401);
    expect((await fetch(`${guarded}/api/specimens/mine/data`)).status).toBe(200);
  });

  it('reads --published-ttl from its flag and VITRINE_PUBLISHED_TTL, and refuses a bad one', () => {
    expect(parseServeOptions(['--published-ttl', '60']).host_options).toMatchObject({ publishedTtlSeconds: 60 });
    expect(parseServeOptions([], { VITRINE_PUBLISHED_TTL: '7' }).host_options).toMatchObject({ publishedTtlSeconds: 7 });
    expect(resolveHostOptions({}).publishedTtlSeconds).toBe(86400);
    expect(() => parseServeOptions(['--published-ttl', 'soon'])).toThrow(/published-ttl/);
  });
});
