/**
 * Python plugin functions served like TypeScript ones: every result type over /invoke, /data
 * (envelopes, delivery, the Godot profile), jobs with progress, the room cache, and inputs.
 * A real interpreter runs them in the host's own plugin processes.
 */
import { describe, expect, it } from 'vitest';
import { decodeEnvelope, type DecodedVolume } from '../../core/envelope/decode-envelope.ts';
import type { FastifyInstance } from 'fastify';
import { fileTestApp, room, waitForJob } from '../helpers/create-test-app.ts';
import { PYTHON, pythonPluginsDir } from '../helpers/python-plugins.ts';

// One host and its two plugin processes for the file: each test reads its own room, and the
// functions are pure, so what one test computed or cached changes nothing another one checks.
const shared = fileTestApp(async () => ({ pluginsDir: await pythonPluginsDir(), python: PYTHON, pythonProcesses: 2 }), 120_000);
const pythonApp = (): FastifyInstance => shared.app;

function invoke(app: FastifyInstance, name: string, kwargs: Record<string, unknown> = {}) {
  return app.inject({ method: 'POST', url: '/api/processing/invoke', payload: { function_name: name, kwargs } });
}

describe('Python plugin functions', () => {
  it('are listed from their manifest with their schemas, and return every result type', async () => {
    const app = pythonApp();
    const specimens = (await app.inject('/api/specimens')).json() as { id: string; function_name: string }[];
    expect(specimens.map((s) => s.id)).toContain('py-triangle');
    const schema = (await app.inject('/api/processing/functions/ramp_volume/schema')).json();
    expect(schema.properties.size).toMatchObject({ type: 'integer', default: 4 });

    expect((await invoke(app, 'triangle', { scale: 2 })).json()).toEqual({ type: 'mesh', vertices: [0, 0, 0, 2, 0, 0, 0, 2, 0], indices: [0, 1, 2] });
    const points = (await invoke(app, 'ring_points', { count: 4 })).json();
    expect(points.type).toBe('point_cloud');
    expect(points.points).toHaveLength(12);
    expect(points.points[0]).toBeCloseTo(1);
    const image = (await invoke(app, 'checker')).json();
    expect(image).toMatchObject({ type: 'image', width: 4, height: 2, channels: 1, dtype: 'uint8' });
    expect([...Buffer.from(image.data, 'base64')]).toEqual([0, 255, 0, 255, 255, 0, 255, 0]);
    for (const dtype of ['uint8', 'int16', 'float64']) {
      const volume = (await invoke(app, 'ramp_volume', { size: 2, dtype })).json();
      expect(volume).toMatchObject({ type: 'volume', shape: [2, 2, 2], dtype, value_range: [0, 7] });
    }
  });

  it('serve /data as envelopes through the room cache, with delivery options and the Godot profile', async () => {
    const app = pythonApp();
    const lab = room();
    const url = `/api/specimens/py-generate-gaussian-volume/data?room_id=${lab}&params=${encodeURIComponent('{"resolution":40}')}`;
    const first = await app.inject(url);
    expect(first.statusCode).toBe(200);
    const volume = decodeEnvelope(new Uint8Array(first.rawPayload)) as DecodedVolume;
    expect(volume.shape).toEqual([40, 40, 40]);
    expect(volume.dtype).toBe('float32');
    expect(Math.max(...(volume.data as Float32Array))).toBeCloseTo(1, 5);
    const again = await app.inject(url);
    expect(Buffer.compare(again.rawPayload, first.rawPayload)).toBe(0);
    const stats = (await app.inject('/api/processing/cache/stats')).json();
    expect(stats.entries.find((e: { room_id: string }) => e.room_id === lab)).toMatchObject({ function_name: 'generate_gaussian_volume', access_count: 2 });

    const godot = await app.inject({ url, headers: { 'user-agent': 'GodotEngine/4.3 (Ascribe-XR)' } });
    expect((decodeEnvelope(new Uint8Array(godot.rawPayload)) as DecodedVolume).dtype).toBe('uint8');
    const npy = await app.inject(`${url}&format=npy`);
    expect(npy.headers['content-disposition']).toContain('.npy');
    const glb = await app.inject(`/api/specimens/py-triangle/data?room_id=${lab}&format=stl`);
    expect(glb.statusCode).toBe(200);
    expect(glb.rawPayload.length).toBe(84 + 50);
  });

  it('run as jobs whose progress messages arrive one per report', async () => {
    const app = pythonApp();
    const started = (await app.inject({ method: 'POST', url: '/api/specimens/py-steps/start', payload: { params: { count: 5 }, room_id: room() } })).json();
    const done = await waitForJob(app, started.job_id);
    expect(done.status).toBe('done');
    expect(done.messages.map((m) => m.text)).toEqual(['step 1 of 5', 'step 2 of 5', 'step 3 of 5', 'step 4 of 5', 'step 5 of 5']);
    const result = (await app.inject(`/api/jobs/${started.job_id}/result`)).json();
    expect(result.type).toBe('mesh');
  });

  it('return labels (an int64 array made uint16) and take them as inputs, segments and all', async () => {
    const app = pythonApp();
    const cubes = (await invoke(app, 'label_cubes')).json();
    expect(cubes).toMatchObject({ type: 'volume', dtype: 'uint16', labels: true, label_names: { '3': 'small', '300': 'large' }, value_range: [0, 300] });
    const lab = room();
    const surface = await app.inject(`/api/specimens/py-label-cubes/data?room_id=${lab}&segment=300`);
    const mesh = decodeEnvelope(new Uint8Array(surface.rawPayload));
    expect(mesh.type).toBe('mesh');
    // The 4-voxel cube of 300 at z 6..9 with z spacing 2: its surface spans z 11..19.
    const zs = Array.from((mesh as { vertices: Float32Array }).vertices.filter((_, i) => i % 3 === 2));
    expect([Math.min(...zs), Math.max(...zs)]).toEqual([11, 19]);
    const shifted = (await invoke(app, 'shift_labels', { volume: { specimen: 'py-label-cubes' } })).json();
    expect(shifted).toMatchObject({ labels: true, label_names: { '4': 'small', '301': 'large' }, value_range: [0, 301] });
  });

  it('take inputs as numpy arrays: another specimen, computed or from the cache', async () => {
    const app = pythonApp();
    const flipped = await app.inject({
      method: 'POST',
      url: '/api/processing/invoke',
      payload: { function_name: 'flip', kwargs: { mesh: { specimen: 'py-triangle', params: { scale: 3 } } } },
    });
    expect(flipped.json()).toEqual({ type: 'mesh', vertices: [0, 0, 0, -3, 0, 0, 0, 3, 0], indices: [2, 1, 0] });
    const doubled = (await invoke(app, 'volume_sum', { volume: { specimen: 'py-ramp-volume', params: { size: 2, dtype: 'uint8' } } })).json();
    expect(doubled).toMatchObject({ type: 'volume', shape: [2, 2, 2], dtype: 'float32', value_range: [0, 14] });
  });

  it('answer a raised exception as a failing function does, and an invalid result as invalid', async () => {
    const app = pythonApp();
    const failed = await invoke(app, 'fails', { message: 'the sample is wet' });
    expect(failed.statusCode).toBe(500);
    expect(failed.json()).toMatchObject({ code: 'SPC_ERR_FUNCTION_FAILED', detail: "function 'fails' failed: ValueError: the sample is wet" });
    const wrong = await invoke(app, 'wrong_shape');
    expect(wrong.json()).toMatchObject({ code: 'SPC_ERR_RESULT_INVALID' });
    expect(wrong.json().detail).toContain('vertices length 5 is not a multiple of 3');
    expect((await invoke(app, 'triangle')).statusCode).toBe(200);
  });
});
