/**
 * The client's function job flow (`runFunction`) against a real host: progress messages once
 * and in order, the typed result from the job, a room cache hit reported by `onStart`, and an
 * abort that cancels the job on the host.
 */
import { describe, expect, it } from 'vitest';
import { createClient, isAbortError, type ProgressMessage, type StartResponse } from '../../core/client/index.ts';
import { createTestApp, room, waitForJob } from '../helpers/create-test-app.ts';

describe('runFunction', () => {
  it('follows a function job to its result, then serves the room cache hit', async () => {
    const app = await createTestApp();
    const client = createClient({ baseUrl: await app.listen({ host: '127.0.0.1', port: 0 }) });
    const r = room();
    const messages: ProgressMessage[] = [];
    const starts: StartResponse[] = [];
    const onStart = (s: StartResponse) => starts.push(s);
    const result = await client.runFunction('steps', { count: 3, delay_ms: 20 }, { room: r, onProgress: (m) => messages.push(m), onStart });
    expect(result.type).toBe('mesh');
    expect(messages.map((m) => m.text)).toEqual(['step 1/3', 'step 2/3', 'step 3/3']);
    await client.runFunction('steps', { count: 3, delay_ms: 20 }, { room: r, onStart });
    expect(starts.map((s) => s.status)).toEqual(['running', 'done']);
  });

  it('cancels the job when the caller aborts', async () => {
    const app = await createTestApp();
    const client = createClient({ baseUrl: await app.listen({ host: '127.0.0.1', port: 0 }) });
    const controller = new AbortController();
    let jobId = '';
    const run = client.runFunction('steps', { count: 200, delay_ms: 50 }, {
      room: room(), signal: controller.signal, onProgress: (_m, id) => ((jobId = id), controller.abort()),
    });
    await expect(run).rejects.toSatisfy(isAbortError);
    expect(await waitForJob(app, jobId)).toMatchObject({ status: 'error', error: 'cancelled' });
  });
});
