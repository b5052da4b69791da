/**
 * Snapshots as session files, over real HTTP: a room's snapshot downloaded from one host as a
 * `.vitrine` tar archive (which the system's `tar` reads), taken in by a fresh host of its own
 * (memory), by a Redis service and by a lone host with a data folder under the same id (saved
 * again there, the same file), and
 * restored into a room there showing the same results, byte for byte, at once. A byte changed, an archive cut short, one past the
 * size limit and a body of another type are each refused with their catalogued code, and so is a
 * document that hashes to its id but is no snapshot document (any shape, nesting or cap it breaks).
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../core/app.ts';
import type { RoomScene, SnapshotCreated } from '../../core/wire/scene-types.ts';
import type { SnapshotDocument } from '../../core/wire/snapshot-types.ts';
import { tarEntries } from '../helpers/tar-entries.ts';
import { writeTar } from '../../core/formats/tar/write-tar.ts';
import { MAX_SESSION_BYTES } from '../../core/snapshots/session-layout.ts';
import { fileTestApp } from '../helpers/create-test-app.ts';
import { fileRedis } from '../helpers/file-redis.ts';
import { fixturePluginsDir } from '../helpers/fixture-plugins.ts';
import { room } from '../helpers/room.ts';
import { makeSpecimensDir } from '../helpers/specimens-dir.ts';
import { tempDataDir } from '../helpers/temp-data-store.ts';
import { waitFor } from '../helpers/wait-for.ts';

const JSON_TYPE = { 'content-type': 'application/json' };
const source = fileTestApp();
const redis = fileRedis();
const hosts: Record<'memory' | 'service' | 'disk', FastifyInstance | null> = { memory: null, service: null, disk: null };
const urls = { memory: '', service: '', disk: '' };

const send = (base: string, method: string, path: string, body?: unknown) =>
  fetch(`${base}${path}`, { method, headers: JSON_TYPE, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
const bytesAt = async (url: string) => Buffer.from(await (await fetch(url)).arrayBuffer());
const post = (base: string, body: Uint8Array, type = 'application/x-tar') =>
  fetch(`${base}/api/snapshots`, { method: 'POST', headers: { 'content-type': type }, body: Uint8Array.from(body) });

/** The snapshot of a room of four layers on the source host, its document and its session file. */
let taken: { id: string; document: SnapshotDocument; file: Buffer; blobs: Map<string, Buffer> };

beforeAll(async () => {
  const base = source.url;
  const r = room('session');
  await send(base, 'PUT', `/api/rooms/${r}/scene`, {
    layers: [
      { id: 'scan', source: { function: 'ramp', params: { n: 6 } }, window: [0, 100], colormap: 'magma' },
      { id: 'mask', source: { function: 'ramp', params: { n: 6, scale: 2 } }, kind: 'labels', opacity: 0.4 },
      { id: 'mesh', source: { function: 'square', params: { size: 2 } } },
      { id: 'tri', source: { specimen: 'tri' } },
    ],
    active: 'scan',
  });
  await send(base, 'PUT', `/api/rooms/${r}/view`, { camera: { position: [0, 0, 5], target: [0, 0, 0], up: [0, 1, 0] } });
  expect((await send(base, 'POST', `/api/rooms/${r}/annotations`, { kind: 'point', label: 'here', points: [[1, 2, 3]] })).status).toBe(201);
  await waitFor(async () => {
    const scene = (await (await fetch(`${base}/api/rooms/${r}/scene`)).json()) as RoomScene;
    return scene.layers.every((layer) => layer.result);
  }, 'every layer of the source room computed');
  const { id } = (await (await send(base, 'POST', `/api/rooms/${r}/snapshots`)).json()) as SnapshotCreated;
  const document = (await (await fetch(`${base}/api/snapshots/${id}`)).json()) as SnapshotDocument;
  const blobs = new Map<string, Buffer>();
  for (const layer of document.scene.layers) blobs.set(layer.result!.blob_id!, await bytesAt(`${base}/api/blobs/${layer.result!.blob_id}`));
  const answer = await fetch(`${base}/api/snapshots/${id}?format=bundle`);
  expect(answer.status).toBe(200);
  expect(answer.headers.get('content-type')).toBe('application/x-tar');
  expect(answer.headers.get('content-disposition')).toBe(`attachment; filename="${id}.vitrine"`);
  taken = { id, document, file: Buffer.from(await answer.arrayBuffer()), blobs };

  const dirs = async () => ({ pluginsDir: await fixturePluginsDir(), specimensDir: await makeSpecimensDir() });
  hosts.memory = await createApp({ ...(await dirs()), logLevel: false, poolSize: 2, viewer: false });
  urls.memory = await hosts.memory.listen({ host: '127.0.0.1', port: 0 });
  hosts.service = await createApp({ ...(await dirs()), logLevel: false, poolSize: 2, viewer: false, redis: redis.server.url });
  urls.service = await hosts.service.listen({ host: '127.0.0.1', port: 0 });
  hosts.disk = await createApp({ ...(await dirs()), logLevel: false, poolSize: 2, viewer: false, dataDir: tempDataDir() });
  urls.disk = await hosts.disk.listen({ host: '127.0.0.1', port: 0 });
}, 120_000);
afterAll(async () => {
  await hosts.memory?.close();
  await hosts.service?.close();
  await hosts.disk?.close();
});

/** Takes the session file into the host at `base`, restores it into a room there and checks what the room shows. */
async function takenInAndRestored(base: string): Promise<void> {
  const imported = await post(base, taken.file);
  expect(imported.status).toBe(201);
  expect(await imported.json()).toEqual({ id: taken.id, url: `/?snapshot=${taken.id}` });
  const again = await fetch(`${base}/api/snapshots/${taken.id}`);
  expect(createHash('sha256').update(Buffer.from(await again.arrayBuffer())).digest('hex')).toBe(taken.id);
  // Saved again from here, it is the very file it came from.
  expect(await bytesAt(`${base}/api/snapshots/${taken.id}?format=bundle`)).toEqual(taken.file);

  const r = room('restored');
  const restored = await send(base, 'PUT', `/api/rooms/${r}/scene`, { snapshot: taken.id });
  expect(restored.status).toBe(200);
  // Each layer shows its result in the answer itself: nothing had to be computed first.
  const scene = (await restored.json()) as RoomScene;
  expect(scene.layers.map((layer) => [layer.id, layer.result?.result_id])).toEqual(
    taken.document.scene.layers.map((layer) => [layer.id, layer.result!.result_id]),
  );
  for (const layer of scene.layers) {
    const blob = layer.result!.blob_id!;
    expect(await bytesAt(`${base}/api/blobs/${blob}`), layer.id).toEqual(taken.blobs.get(blob));
  }
  expect(await (await fetch(`${base}/api/rooms/${r}/view`)).json()).toMatchObject({ camera: { position: [0, 0, 5] } });
  const marks = (await (await fetch(`${base}/api/rooms/${r}/annotations`)).json()) as { annotations: { label: string }[] };
  expect(marks.annotations.map((mark) => mark.label)).toEqual(['here']);
}

/** A session file holding document `json` under its own hash, and no results. */
function sessionOf(json: string): Buffer {
  const id = createHash('sha256').update(json).digest('hex');
  const manifest = JSON.stringify({ format: 'vitrine-session', version: 1, snapshot: id, created: 1 });
  const { chunks } = writeTar([
    { name: 'vitrine.json', data: [Buffer.from(manifest)] },
    { name: 'snapshot.json', data: [Buffer.from(json)] },
  ]);
  return Buffer.concat(chunks);
}

describe('a session file', () => {
  it('is a tar archive of the document and every result the snapshot pins, each named by its id', () => {
    const dir = mkdtempSync(join(tmpdir(), 'vitrine-session-'));
    const path = join(dir, `${taken.id}.vitrine`);
    writeFileSync(path, taken.file);
    const listed = execFileSync('tar', ['-tf', path], { encoding: 'utf8' }).trim().split('\n');
    expect(listed.slice(0, 2)).toEqual(['vitrine.json', 'snapshot.json']);
    const named = taken.document.scene.layers.map((layer) => layer.result!.result_id).filter((id) => id !== undefined);
    expect(listed.slice(2).sort()).toEqual([...new Set(named)].map((id) => `results/${id}`).sort());
    expect(execFileSync('tar', ['-xOf', path, 'snapshot.json'])).toEqual(Buffer.from(JSON.stringify(taken.document)));
  });

  it('is taken in by a fresh host under the same id and restored into a room there, the same bytes without computing', () =>
    takenInAndRestored(urls.memory));

  it('is taken in by a Redis service and restored there the same way', () => takenInAndRestored(urls.service));

  it('is taken in by a lone host with a data folder, its results into the folder, and restored there the same way', () =>
    takenInAndRestored(urls.disk));

  it('is known by its tar magic whatever its label, or without one', async () => {
    for (const type of ['application/zip', undefined]) {
      const headers: Record<string, string> = type ? { 'content-type': type } : {};
      const answer = await fetch(`${urls.memory}/api/snapshots`, { method: 'POST', headers, body: Uint8Array.from(taken.file) });
      expect(answer.status, String(type)).toBe(201);
    }
  });

  it('is taken in from a body sent without a length, in pieces', async () => {
    const pieces = [taken.file.subarray(0, 1000), taken.file.subarray(1000, 5000), taken.file.subarray(5000)];
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const piece of pieces) controller.enqueue(Uint8Array.from(piece));
        controller.close();
      },
    });
    const init = { method: 'POST', headers: { 'content-type': 'application/x-tar' }, body, duplex: 'half' } as RequestInit;
    const answer = await fetch(`${urls.memory}/api/snapshots`, init);
    expect(answer.status).toBe(201);
    expect(((await answer.json()) as SnapshotCreated).id).toBe(taken.id);
  });

  it('is refused (400 naming it) when a byte of a result changed', async () => {
    const file = Buffer.from(taken.file);
    const entry = (await tarEntries(file)).find((e) => e.name.startsWith('results/'))!;
    entry.data[entry.data.length - 1]! ^= 0xff;
    const answer = await post(urls.memory, file, 'application/octet-stream');
    expect(answer.status).toBe(400);
    const body = (await answer.json()) as { code: string; detail: string };
    expect(body.code).toBe('SPC_ERR_SESSION_MISMATCH');
    expect(body.detail).toContain(entry.name);
  });

  it('is refused (400) when its document changed', async () => {
    const file = Buffer.from(taken.file);
    const entry = (await tarEntries(file)).find((e) => e.name === 'snapshot.json')!;
    entry.data[1] = 0x20;
    const body = (await (await post(urls.memory, file)).json()) as { code: string; detail: string };
    expect(body).toMatchObject({ status_code: 400, code: 'SPC_ERR_SESSION_MISMATCH' });
    expect(body.detail).toContain("'snapshot.json'");
  });

  it('is refused (400) when cut short, or not an archive at all', async () => {
    for (const cut of [taken.file.subarray(0, taken.file.length - 2048), taken.file.subarray(0, 700), Buffer.from('not a tar file')]) {
      const answer = await post(urls.memory, cut);
      expect(answer.status).toBe(400);
      expect(((await answer.json()) as { code: string }).code).toBe('SPC_ERR_SESSION_INVALID');
    }
  });

  it('is refused (413) past the size limit before its body is read, and (415) as a form', async () => {
    const status = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = httpRequest(`${urls.memory}/api/snapshots`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-tar', 'content-length': String(MAX_SESSION_BYTES + 1) },
      });
      req.on('response', (res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      req.on('error', reject);
      req.flushHeaders();
    });
    expect(status.status).toBe(413);
    expect(JSON.parse(status.body)).toMatchObject({ code: 'SPC_ERR_SESSION_TOO_LARGE' });
    const typed = await post(urls.memory, taken.file, 'text/plain');
    expect(typed.status).toBe(415);
    expect(((await typed.json()) as { code: string }).code).toBe('SPC_ERR_SESSION_MEDIA_TYPE');
  });

  it('is refused (400) when its document, though it hashes to its id, is no snapshot document', async () => {
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    const longLabel = { ...taken.document, annotations: [{ ...taken.document.annotations[0]!, label: 'x'.repeat(1024 * 1024) }] };
    const unknownLayerField = { ...taken.document, scene: { ...taken.document.scene, layers: [{ ...taken.document.scene.layers[0]!, shader: 'x' }] } };
    const cases: [string, string][] = [
      ['{"x":1}', "'x' is not a field of a snapshot document"],
      [deep, 'it must be an object {annotations, scene, view}'],
      [`{"annotations": [], "scene": {"layers": [], "active": null}, "view": {"camera": ${deep}}}`, 'nests more than 32 levels deep'],
      [JSON.stringify(longLabel), 'annotations[0].label must be at most 256 characters'],
      [JSON.stringify(unknownLayerField), 'scene.layers[0].shader'],
      ['{"annotations": [], "scene": {"layers": [], "active": "gone"}, "view": {}}', "'scene.active' names 'gone'"],
    ];
    for (const [json, says] of cases) {
      for (const base of [urls.memory, urls.service, urls.disk]) {
        const answer = await post(base, sessionOf(json));
        expect(answer.status, says).toBe(400);
        const body = (await answer.json()) as { code: string; detail: string };
        expect(body.code).toBe('SPC_ERR_SESSION_INVALID');
        expect(body.detail).toContain("'snapshot.json' is not a snapshot document");
        expect(body.detail).toContain(says);
        const id = createHash('sha256').update(json).digest('hex');
        expect((await fetch(`${base}/api/snapshots/${id}`)).status).toBe(404);
      }
    }
  });

  it('of a snapshot the host does not have is a 404', async () => {
    const answer = await fetch(`${source.url}/api/snapshots/${'0'.repeat(64)}?format=bundle`);
    expect(answer.status).toBe(404);
  });
});
