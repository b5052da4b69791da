/**
 * A Godot headset client's job `/result` carries what its `/data` would: for the time-lapse
 * example (two channels over time), one step, uint8, at most 256 a side, the same samples the
 * client's `/data` of that job's parameters gets; any other client gets the whole result.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../core/app.ts';
import { decodeEnvelope, type DecodedVolume } from '../../core/envelope/decode-envelope.ts';
import { someExamplePlugins } from '../helpers/example-plugins.ts';
import { room, waitForJob } from '../helpers/create-test-app.ts';

const GODOT = { 'user-agent': 'GodotEngine/4.3.stable.official (Linux)' };
const PARAMS = { size: 20, steps: 4 };

let app: FastifyInstance;

beforeAll(async () => {
  // The example plugin itself, built as `npm start` builds it (build/out), alone: beside all of
  // them the Python example's warm processes would start in this process.
  app = await createApp({ pluginsDir: someExamplePlugins('time-lapse'), specimensDir: null, logLevel: false, poolSize: 1, viewer: false });
});
afterAll(() => app?.close());

interface TypedVolume {
  type: string;
  shape: number[];
  dtype: string;
  data: string;
  t?: number;
  sizes?: Record<string, number>;
}

describe("a headset client's job result", () => {
  it('is one uint8 step of the time-lapse, as its /data is; others get the whole volume', async () => {
    const r = room('headset');
    const started = await app.inject({ method: 'POST', url: '/api/specimens/dividing-cells/start', payload: { params: PARAMS, room_id: r } });
    const jobId = (started.json() as { job_id: string }).job_id;
    expect((await waitForJob(app, jobId)).status).toBe('done');

    const whole = (await app.inject(`/api/jobs/${jobId}/result`)).json() as TypedVolume;
    expect(whole).toMatchObject({ type: 'volume', shape: [4, 2, 20, 20, 20], dtype: 'uint16' });

    const answer = await app.inject({ url: `/api/jobs/${jobId}/result`, headers: GODOT });
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['x-result-id']).toBe((await app.inject(`/api/jobs/${jobId}/result`)).headers['x-result-id']);
    expect(String(answer.headers.vary)).toMatch(/User-Agent/);
    const step = answer.json() as TypedVolume;
    expect(step).toMatchObject({ type: 'volume', shape: [20, 20, 20], dtype: 'uint8' });
    expect(answer.rawPayload.length).toBeLessThan(whole.data.length / 4);

    const query = encodeURIComponent(JSON.stringify(PARAMS));
    const data = decodeEnvelope((await app.inject({ url: `/api/specimens/dividing-cells/data?params=${query}&room_id=${r}`, headers: GODOT })).rawPayload);
    const viaData = data as DecodedVolume;
    expect(viaData).toMatchObject({ shape: [20, 20, 20], dtype: 'uint8' });
    expect(Buffer.from(step.data, 'base64').equals(Buffer.from(viaData.data.buffer, viaData.data.byteOffset, viaData.data.byteLength))).toBe(true);
  });
});
