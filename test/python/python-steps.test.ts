/**
 * Python plugins return volumes with time and channels: a bare 5-D numpy array (read as
 * `tczyx`) or `VolumeResult.from_numpy(..., axes=, vector=, channels=, time_step=,
 * time_unit=)`. The host serves them one step at a time as it does a TypeScript plugin's,
 * with the ranges the plugin process worked out (a vector field's largest magnitude maps its
 * direction colours), and an axes string that does not fit the array is the function's fault.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../core/app.ts';
import { decodeEnvelope, type DecodedVolume } from '../../core/envelope/decode-envelope.ts';
import { PYTHON, pythonPluginsDir } from '../helpers/python-plugins.ts';

let app: FastifyInstance;

beforeAll(async () => {
  app = await createApp({
    pluginsDir: await pythonPluginsDir(),
    specimensDir: null,
    logLevel: false,
    poolSize: 1,
    viewer: false,
    python: PYTHON,
    pythonProcesses: 1,
  });
});
afterAll(() => app?.close());

async function data(fn: string, query: string): Promise<DecodedVolume> {
  const res = await app.inject({ method: 'POST', url: '/api/processing/invoke', payload: { function_name: fn } });
  expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
  app.vitrine.showSpecimen({
    id: `py-${fn}`, display_name: fn, description: '', type: 'volume', tags: [], is_dynamic: true, function_name: fn,
    thumbnail_file: null, thumbnail: { kind: 'none' }, story: null, origin: 'code',
  });
  const step = await app.inject(`/api/specimens/py-${fn}/data?${query}`);
  expect(step.statusCode, step.body.slice(0, 300)).toBe(200);
  return decodeEnvelope(step.rawPayload) as DecodedVolume;
}

describe('Python volumes with time and channels', () => {
  it('reads a bare 5-D array as tczyx and serves its steps', async () => {
    const whole = (await app.inject({ method: 'POST', url: '/api/processing/invoke', payload: { function_name: 'time_lapse' } })).json();
    expect(whole).toMatchObject({ axes: 'tczyx', shape: [3, 2, 4, 5, 6], dtype: 'uint16' });
    const step = await data('time_lapse', 't=2&c=1');
    expect(step.shape).toEqual([4, 5, 6]);
    expect(step.data[(1 * 5 + 2) * 6 + 3]).toBe(2000 + 100 + 10 + 2 + 3);
    expect(step.preamble).toMatchObject({ t: 2, c: 1, sizes: { t: 3, c: 2, z: 4, y: 5, x: 6 } });
    // The channel's range over every step, as the plugin process worked it out.
    expect(step.value_range).toEqual([100, 2000 + 100 + 30 + 4 + 5]);
  });

  it('takes axes, channels, time and vector from VolumeResult, and maps direction colours from its magnitude', async () => {
    const rgb = await data('flow', 't=1&c=rgb');
    expect([rgb.dtype, rgb.shape]).toEqual(['uint8', [2, 3, 4, 3]]);
    expect(rgb.preamble).toMatchObject({
      t: 1,
      c: 'rgb',
      vector: true,
      time_step: 0.5,
      time_unit: 'second',
      channels: [{ name: 'vx' }, { name: 'vy', color: '#00ff00' }, { name: 'vz' }],
    });
    // Component k of step t at x is (k + 1)(t + 1)x: the largest magnitude is at t = 1, x = 3.
    const m = Math.hypot(6, 12, 18);
    expect(rgb.value_range![1]).toBeCloseTo(m, 9);
    const at = (x: number, k: number) => rgb.data[((0 * 3 + 0) * 4 + x) * 3 + k];
    for (let k = 0; k < 3; k++) expect(at(3, k)).toBe(Math.round((((k + 1) * 2 * 3 + m) / (2 * m)) * 255));
    expect(rgb.spacing).toEqual([2, 1, 1]);
  });

  it('refuses an axes string that does not fit the array, naming axes', async () => {
    const res = await app.inject({ method: 'POST', url: '/api/processing/invoke', payload: { function_name: 'wrong_axes' } });
    expect(res.statusCode).toBe(500);
    expect(res.json().detail).toMatch(/wrong_axes.*axes 'tczyx' names 5 axes but the array has 4 dimensions/);
  });
});
