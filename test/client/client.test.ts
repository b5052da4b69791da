/**
 * The client SDK against a real host process: every route, the typed results of each kind,
 * the job flow with progress, cache hits and cancellation, and the typed errors.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createClient,
  InvalidRequestError,
  isAbortError,
  JobGoneError,
  JobRunningError,
  NotFoundError,
  ServerError,
  VitrineHttpError,
  VitrineJobError,
} from '../../core/client/index.ts';
import type { ProgressMessage, SpecimenData, VitrineClient } from '../../core/client/index.ts';
import { waitFor } from '../helpers/wait-for.ts';
import { room } from '../helpers/room.ts';
import { STATIC_CUBE_OBJ, startHost, type HostProcess } from './host-process.ts';

let host: HostProcess;
let client: VitrineClient;

beforeAll(async () => {
  host = await startHost();
  client = createClient({ baseUrl: host.baseUrl });
});

afterAll(async () => {
  await host?.close();
});

function expectMesh(data: SpecimenData) {
  if (data.type !== 'mesh') throw new Error(`expected a mesh, got ${data.type}`);
  return data;
}

/** Waits (bounded) until a job leaves `running`; no fixed delay is asserted. */
function settled(jobId: string) {
  return waitFor(async () => {
    const progress = await client.progress(jobId);
    return progress.status === 'running' ? undefined : progress;
  }, `job ${jobId} to end`);
}

describe('catalog and metadata', () => {
  it('lists the fixture specimens with their kind and thumbnails', async () => {
    const list = await client.listSpecimens();
    const byId = new Map(list.map((e) => [e.id, e]));
    expect(byId.get('shape')).toMatchObject({ is_dynamic: true, type: 'mesh', function_name: 'shape' });
    expect(byId.get('density')).toMatchObject({ is_dynamic: true, type: 'volume' });
    expect(byId.get('cube')).toMatchObject({ is_dynamic: false, function_name: null, display_name: 'Static cube' });
    const thumb = await fetch(client.thumbnailUrl('shape'));
    expect(thumb.status).toBe(200);
    expect(thumb.headers.get('content-type')).toMatch(/^image\//);
  });

  it('gets one specimen with its parameter schema, and functions with theirs', async () => {
    const meta = await client.getSpecimen('shape');
    expect(meta.schema?.properties.segments).toMatchObject({ type: 'integer', minimum: 3, maximum: 64, default: 16 });
    expect(meta.schema?.properties.kind?.enum).toEqual(['sphere', 'torus']);
    const functions = await client.listFunctions();
    expect(functions.map((f) => f.name)).toEqual(expect.arrayContaining(['shape', 'slow_sphere', 'density', 'galaxy', 'pattern']));
    expect(functions.find((f) => f.name === 'galaxy')?.return_type).toBe('point_cloud');
    const schema = await client.getSchema('slow_sphere');
    expect(Object.keys(schema.properties)).toEqual(['steps', 'step_ms']);
  });

  it('reloads the specimens directory', async () => {
    expect((await client.reload()).count).toBe(1);
  });
});

describe('getData and invoke', () => {
  it('decodes a dynamic mesh envelope with the defaults and with params', async () => {
    const defaults = expectMesh(await client.getData('shape', { room: room() }));
    expect(defaults.vertices).toBeInstanceOf(Float32Array);
    expect(defaults.indices).toBeInstanceOf(Uint32Array);
    expect(defaults.vertices.length / 3).toBe(17 * 17);
    expect(defaults.indices.length / 3).toBe(2 * 16 * 16);
    expect(defaults.normals?.length).toBe(defaults.vertices.length);
    const coarse = expectMesh(await client.getData('shape', { params: { segments: 8, smooth: false }, room: room() }));
    expect(coarse.indices.length / 3).toBe(128);
    expect(coarse.normals).toBeNull();
    const posted = expectMesh(await client.getData('shape', { params: { segments: 8, smooth: false }, room: room(), method: 'POST' }));
    expect(Array.from(posted.vertices)).toEqual(Array.from(coarse.vertices));
  });

  it('decodes a volume envelope', async () => {
    const data = await client.getData('density', { params: { size: 8 }, room: room() });
    if (data.type !== 'volume') throw new Error(`expected a volume, got ${data.type}`);
    expect(data.shape).toEqual([8, 8, 8]);
    expect(data.dtype).toBe('float32');
    expect(data.data).toBeInstanceOf(Float32Array);
    expect(data.data.length).toBe(512);
    expect(data.spacing).toEqual([1, 1, 1]);
  });

  it('reads a blob by its id: the same volume as the /data answer that named it', async () => {
    const answer = await fetch(client.dataUrl('density', { params: { size: 8 }, room: room() }));
    await answer.arrayBuffer();
    const blobId = answer.headers.get('x-blob-id')!;
    expect(client.blobUrl(blobId)).toBe(`${host.baseUrl}/api/blobs/${blobId}`);
    const data = await client.getBlob(blobId);
    if (data.type !== 'volume') throw new Error(`expected a volume, got ${data.type}`);
    expect(data.shape).toEqual([8, 8, 8]);
    expect(data.data.length).toBe(512);
  });

  it('decodes point-cloud and image JSON into typed arrays', async () => {
    const cloud = await client.getData('galaxy', { params: { count: 100 }, room: room() });
    if (cloud.type !== 'point_cloud') throw new Error(`expected a point cloud, got ${cloud.type}`);
    expect(cloud.points).toBeInstanceOf(Float32Array);
    expect(cloud.points.length).toBe(300);
    expect(cloud.colors).toBeInstanceOf(Uint8Array);
    expect(cloud.colors?.length).toBe(300);
    expect(cloud.scalars?.length).toBe(100);
    const image = await client.getData('pattern', { params: { width: 16, height: 8, mode: 'checker' }, room: room() });
    if (image.type !== 'image') throw new Error(`expected an image, got ${image.type}`);
    expect([image.width, image.height, image.channels, image.dtype]).toEqual([16, 8, 3, 'uint8']);
    expect(image.data.length).toBe(16 * 8 * 3);
    // Pixel (0,0) is an "on" checker square; pixel (8,0) an "off" one; green ramps with x.
    expect([image.data[0], image.data[8 * 3], image.data[15 * 3 + 1]]).toEqual([240, 30, 255]);
  });

  it('returns a static file as bytes with its content type and name', async () => {
    const file = await client.getData('cube');
    if (file.type !== 'file') throw new Error(`expected a file, got ${file.type}`);
    expect(file.fileName).toBe('cube.obj');
    expect(new TextDecoder().decode(file.bytes)).toBe(STATIC_CUBE_OBJ);
  });

  it('invokes a function with positional and keyword arguments', async () => {
    const r = room();
    const mesh = expectMesh(await client.invoke('shape', { args: ['torus', 6], kwargs: { smooth: false }, room: r }));
    expect(mesh.indices.length / 3).toBe(72);
    const same = expectMesh(await client.getData('shape', { params: { kind: 'torus', segments: 6, smooth: false }, room: r }));
    expect(Array.from(same.vertices)).toEqual(Array.from(mesh.vertices));
  });
});

describe('typed errors', () => {
  it('400 for invalid params, with the detail naming the parameter', async () => {
    const error = await client.getData('shape', { params: { segments: 999 }, room: room() }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidRequestError);
    expect(error).toBeInstanceOf(VitrineHttpError);
    const e = error as InvalidRequestError;
    expect(e.status).toBe(400);
    expect(e.kind).toBe('invalid');
    expect(e.detail).toContain('segments');
    expect(typeof e.code).toBe('string');
    await expect(client.startJob('shape', { params: { nope: 1 } })).rejects.toMatchObject({ status: 400, detail: expect.stringContaining('nope') });
  });

  it('404 for unknown specimens, functions and jobs', async () => {
    await expect(client.getSpecimen('no-such-thing')).rejects.toBeInstanceOf(NotFoundError);
    await expect(client.getSchema('no_such_function')).rejects.toMatchObject({ status: 404, kind: 'not_found' });
    await expect(client.result('no-such-job')).rejects.toBeInstanceOf(NotFoundError);
  });

  it('500 when the function throws, 409 while a job runs, 410 after it failed', async () => {
    const failed = await client.invoke('broken', { room: room() }).catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(ServerError);
    expect((failed as ServerError).detail).toContain('failed on purpose');

    const slow = await client.startJob('slow-sphere', { params: { steps: 100, step_ms: 100 }, room: room() });
    await expect(client.result(slow.job_id)).rejects.toBeInstanceOf(JobRunningError);
    await client.cancel(slow.job_id);

    const broken = await client.startJob('broken', { room: room() });
    expect((await settled(broken.job_id)).status).toBe('error');
    await expect(client.result(broken.job_id)).rejects.toBeInstanceOf(JobGoneError);
  });
});

describe('load: the job flow', () => {
  it('delivers every progress message once, in order, then the result; a repeat is a cache hit', async () => {
    const r = room();
    const seen: ProgressMessage[] = [];
    const starts: string[] = [];
    const params = { steps: 4, step_ms: 40 };
    const mesh = expectMesh(
      await client.load('slow-sphere', params, {
        room: r,
        pollIntervalMs: 30,
        onStart: (s) => starts.push(s.status),
        onProgress: (m) => seen.push(m),
      }),
    );
    expect(starts).toEqual(['running']);
    expect(seen.map((m) => m.seq)).toEqual([0, 1, 2, 3]);
    expect(seen.map((m) => m.text)).toEqual(['step 1 of 4', 'step 2 of 4', 'step 3 of 4', 'step 4 of 4']);
    expect(mesh.indices.length).toBeGreaterThan(0);

    const again: ProgressMessage[] = [];
    const cached = expectMesh(
      await client.load('slow-sphere', params, { room: r, onStart: (s) => starts.push(s.status), onProgress: (m) => again.push(m) }),
    );
    expect(starts).toEqual(['running', 'done']);
    expect(again).toEqual([]);
    expect(Array.from(cached.vertices)).toEqual(Array.from(mesh.vertices));
    const stats = await client.cacheStats();
    expect(stats.entries.filter((e) => e.room_id === r).map((e) => e.function_name)).toEqual(['slow_sphere']);
  });

  it('can fetch the result through /jobs/{id}/result instead', async () => {
    const r = room();
    const viaJob = expectMesh(await client.load('shape', { segments: 5 }, { room: r, resultVia: 'job' }));
    const answers: (string | null)[] = [];
    const viaData = expectMesh(
      await client.load('shape', { segments: 5 }, { room: r, onHeaders: (response) => answers.push(response.headers.get('content-type')) }),
    );
    // The /data answer's headers are handed over before its body is read.
    expect(answers).toEqual(['application/x-service-envelope-v1']);
    expect(viaJob.indices.length / 3).toBe(50);
    expect(Array.from(viaJob.indices)).toEqual(Array.from(viaData.indices));
  });

  it('rejects with the job error when the job fails', async () => {
    const error = await client.load('broken', { message: 'boom' }, { room: room() }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(VitrineJobError);
    expect((error as VitrineJobError).error).toContain('boom');
  });

  it('aborting rejects with an AbortError and cancels the job on the host', async () => {
    const controller = new AbortController();
    let jobId = '';
    const loading = client.load('slow-sphere', { steps: 200, step_ms: 100 }, {
      room: room(),
      signal: controller.signal,
      pollIntervalMs: 30,
      onStart: (s) => (jobId = s.job_id),
      onProgress: () => controller.abort(),
    });
    const error = await loading.catch((e: unknown) => e);
    expect(isAbortError(error)).toBe(true);
    const final = await settled(jobId);
    expect(final).toMatchObject({ status: 'error', error: 'cancelled' });
    expect(final.messages.length).toBeLessThan(200);
  });

  it('loads a static specimen from its catalog entry', async () => {
    const entry = (await client.listSpecimens()).find((e) => e.id === 'cube');
    if (!entry) throw new Error('cube missing from the catalog');
    const file = await client.load(entry);
    expect(file.type).toBe('file');
  });

  it('clears every cached result', async () => {
    await client.getData('shape', { params: { segments: 4 }, room: room() });
    expect((await client.cacheStats()).total_entries).toBeGreaterThan(0);
    await client.clearCache();
    expect((await client.cacheStats()).total_entries).toBe(0);
  });
});
