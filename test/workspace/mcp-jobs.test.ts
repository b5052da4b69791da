/**
 * The agents' long work and pictures through the official SDK's client over Streamable HTTP:
 * `start_job` answers a job id at once, `job_status` follows its progress and, once done,
 * answers the summary `compute` gives; `cancel_job` stops a running job, and refuses a
 * finished or unknown one; `room_image` answers the room's PNG as image content.
 */
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { room } from '../helpers/create-test-app.ts';
import { fileMcp } from '../helpers/mcp-client.ts';
import { waitFor } from '../helpers/wait-for.ts';

const mcp = fileMcp();
const call = mcp.call;
const status = async (jobId: string) => (await call('job_status', { job_id: jobId })).structuredContent!;

describe('MCP jobs', () => {
  it('starts a long job, follows its progress and cancels it; a cancelled or unknown job cannot be cancelled', async () => {
    const started = await call('start_job', { function: 'steps', params: { count: 400, delay_ms: 50 }, room: room() });
    expect(started.isError).toBeFalsy();
    const jobId = String(started.structuredContent!.job_id);
    expect(started.structuredContent).toMatchObject({ status: 'running', function_name: 'steps' });
    const running = await waitFor(async () => {
      const now = await status(jobId);
      return now.progress ? now : undefined;
    }, 'a progress report');
    expect(running).toMatchObject({ status: 'running', progress: { text: expect.stringMatching(/^step \d+\/400$/), fraction: expect.any(Number) } });
    expect((await call('cancel_job', { job_id: jobId })).structuredContent).toEqual({ job_id: jobId, status: 'cancelled' });
    const ended = await waitFor(async () => {
      const now = await status(jobId);
      return now.status !== 'running' ? now : undefined;
    }, 'the cancelled job to end');
    expect(ended).toMatchObject({ status: 'error', error: 'cancelled' });
    const again = await call('cancel_job', { job_id: jobId });
    expect(again.isError).toBe(true);
    expect(again.content[0]!.text).toContain('has already ended');
    const unknown = await call('cancel_job', { job_id: 'no-such-job' });
    expect(unknown.isError).toBe(true);
    expect(unknown.content[0]!.text).toContain("job 'no-such-job' not found");
  });

  it('answers a finished job’s summary, never its bytes', async () => {
    const jobId = String((await call('start_job', { function: 'steps', params: { count: 2, delay_ms: 1 }, room: room() })).structuredContent!.job_id);
    const done = await waitFor(async () => {
      const now = await status(jobId);
      return now.status === 'done' ? now : undefined;
    }, 'the job to finish');
    expect(done.result).toMatchObject({
      function_name: 'steps',
      type: 'mesh',
      vertices: expect.any(Number),
      result_id: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    expect((done.progress as { text: string }).text).toBe('step 2/2');
    expect(JSON.stringify(done).length).toBeLessThan(4000);
  });
});

describe('MCP room_image', () => {
  it('answers the room’s PNG as image content of the asked size; an empty room is an error', async () => {
    const r = room();
    expect((await call('compute', { function: 'ramp', params: { n: 10 }, room: r })).isError).toBeFalsy();
    const answer = await call('room_image', { room: r, w: 96, h: 64 });
    expect(answer.isError).toBeFalsy();
    const image = answer.content.find((c) => c.type === 'image')!;
    expect(image.mimeType).toBe('image/png');
    const png = PNG.sync.read(Buffer.from(image.data!, 'base64'));
    expect([png.width, png.height]).toEqual([96, 64]);
    const distinct = new Set<number>();
    for (let i = 0; i < png.data.length; i += 4) distinct.add((png.data[i]! << 16) | (png.data[i + 1]! << 8) | png.data[i + 2]!);
    expect(distinct.size).toBeGreaterThan(20);
    const empty = await call('room_image', { room: room() });
    expect(empty.isError).toBe(true);
    expect(empty.content[0]!.text).toContain('shows nothing');
    const bad = await call('room_image', { room: r, w: 4096 });
    expect(bad.isError).toBe(true);
    expect(bad.content[0]!.text).toContain('w must be a whole number of pixels');
  });
});
