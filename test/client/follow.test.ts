/**
 * The client's event followers against a real host process: followJob (every message once,
 * in order, then the end; a resume with Last-Event-ID after the connection drops; a 404 for
 * an unknown job), followRoom (state, computing, result; a fresh state after a reconnect;
 * abort), and load() taking the job stream, falling back to polling on a host without it or
 * when the stream keeps failing, and cancelling the job when aborted mid-stream. The proxy of
 * events-proxy.ts plays the network and the older host.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, isAbortError, NotFoundError } from '../../core/client/index.ts';
import type { JobEvent, ProgressMessage, RoomEvent, VitrineClient } from '../../core/client/index.ts';
import { startEventsProxy, type EventsProxy, type ProxyMode } from './events-proxy.ts';
import { startHost, type HostProcess } from './host-process.ts';
import { room } from '../helpers/room.ts';

let host: HostProcess;
let client: VitrineClient;
const proxies: EventsProxy[] = [];

beforeAll(async () => {
  host = await startHost();
  client = createClient({ baseUrl: host.baseUrl });
});

afterAll(async () => {
  for (const proxy of proxies) await proxy.close();
  await host?.close();
});

/** A client whose requests go through a proxy in `mode`, and whose request URLs are recorded. */
async function through(mode: ProxyMode): Promise<{ client: VitrineClient; proxy: EventsProxy }> {
  const proxy = await startEventsProxy(host.baseUrl, mode);
  proxies.push(proxy);
  return { client: createClient({ baseUrl: proxy.baseUrl }), proxy };
}

async function collect(events: AsyncIterable<JobEvent>): Promise<JobEvent[]> {
  const out: JobEvent[] = [];
  for await (const event of events) out.push(event);
  return out;
}

const seqs = (events: JobEvent[]) => events.flatMap((e) => (e.event === 'progress' ? [e.data.seq] : []));

describe('followJob', () => {
  it('yields each progress message once, in seq order, then done, and ends', async () => {
    const start = await client.startJob('slow-sphere', { params: { steps: 5, step_ms: 30 }, room: room() });
    const events = await collect(client.followJob(start.job_id));
    expect(seqs(events)).toEqual([0, 1, 2, 3, 4]);
    expect(events[0]).toMatchObject({ event: 'progress', data: { seq: 0, text: 'step 1 of 5', fraction: 0.2 } });
    expect(events.at(-1)).toEqual({ event: 'done', data: { job_id: start.job_id, status: 'done', error: null } });
    // `since` resumes a finished job's stream after that seq.
    expect(seqs(await collect(client.followJob(start.job_id, { since: 2 })))).toEqual([3, 4]);
  });

  it('resumes with Last-Event-ID after the connection drops, with neither gaps nor repeats', async () => {
    const { client: cut, proxy } = await through({ kind: 'cut-events', events: 2 });
    const start = await client.startJob('slow-sphere', { params: { steps: 6, step_ms: 100 }, room: room() });
    const events = await collect(cut.followJob(start.job_id, { retryDelayMs: 20 }));
    expect(seqs(events)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(events.at(-1)).toMatchObject({ event: 'done', data: { status: 'done' } });
    expect(proxy.streams.length).toBeGreaterThanOrEqual(2);
    expect(proxy.streams[0]?.lastEventId).toBeNull();
    expect(proxy.streams[1]?.lastEventId).toBe('1');
  });

  it('ends with the error event of a failed job, and throws NotFoundError for an unknown job', async () => {
    const start = await client.startJob('broken', { room: room() });
    const events = await collect(client.followJob(start.job_id));
    expect(events.at(-1)).toMatchObject({ event: 'error', data: { job_id: start.job_id, status: 'error' } });
    await expect(collect(client.followJob('no-such-job'))).rejects.toBeInstanceOf(NotFoundError);
  });
});

describe('followRoom', () => {
  it('yields state and view, then computing and result for another client’s work, until aborted', async () => {
    const r = room();
    const controller = new AbortController();
    const seen: RoomEvent[] = [];
    const follow = (async () => {
      for await (const event of client.followRoom(r, { signal: controller.signal })) {
        seen.push(event);
        if (event.event === 'state') void createClient({ baseUrl: host.baseUrl }).invoke('shape', { kwargs: { radius: 2 }, room: r });
        if (event.event === 'result') controller.abort();
      }
    })();
    const error = await follow.then(() => null, (e: unknown) => e);
    expect(isAbortError(error)).toBe(true);
    // The room's view comes right after its state: a fresh room's has no settings.
    expect(seen.map((e) => e.event)).toEqual(['state', 'view', 'computing', 'result']);
    expect(seen[0]?.data).toBeNull();
    expect(seen[1]?.data ?? {}).toEqual({});
    expect(seen[2]?.data).toMatchObject({ function_name: 'shape', specimen_id: null, job_id: null, type: 'mesh', params: { radius: 2 } });
    expect(seen[3]?.data).toMatchObject({ function_name: 'shape', specimen_id: null, type: 'mesh', params: { radius: 2 } });
  });

  it('reconnects after the connection drops and yields the current state again', async () => {
    const r = room();
    await client.invoke('shape', { kwargs: { radius: 3 }, room: r });
    const { client: cut, proxy } = await through({ kind: 'cut-events', events: 1 });
    const states: RoomEvent[] = [];
    for await (const event of cut.followRoom(r, { retryDelayMs: 20 })) {
      if (event.event !== 'state') continue;
      states.push(event);
      if (states.length === 2) break;
    }
    expect(states.map((e) => e.event)).toEqual(['state', 'state']);
    expect(states[1]).toEqual(states[0]);
    expect(states[0]?.data).toMatchObject({ function_name: 'shape', params: { radius: 3 } });
    expect(proxy.streams).toHaveLength(2);
  });
});

describe('load() and the job stream', () => {
  const params = { steps: 4, step_ms: 40 };

  async function loadWithProgress(c: VitrineClient): Promise<ProgressMessage[]> {
    const messages: ProgressMessage[] = [];
    const data = await c.load('slow-sphere', params, { room: room(), pollIntervalMs: 30, onProgress: (m) => messages.push(m) });
    expect(data.type).toBe('mesh');
    return messages;
  }

  it('follows the job through its event stream, without polling', async () => {
    const { client: c, proxy } = await through({ kind: 'pass' });
    const messages = await loadWithProgress(c);
    expect(messages.map((m) => m.seq)).toEqual([0, 1, 2, 3]);
    expect(proxy.streams).toHaveLength(1);
    expect(proxy.requests.filter((u) => u.includes('/progress'))).toEqual([]);
  });

  it('falls back to polling on a host without the events route (404)', async () => {
    const { client: c, proxy } = await through({ kind: 'no-events' });
    const messages = await loadWithProgress(c);
    expect(messages.map((m) => m.seq)).toEqual([0, 1, 2, 3]);
    expect(proxy.streams).toHaveLength(1);
    expect(proxy.requests.some((u) => u.includes('/progress'))).toBe(true);
  });

  it('falls back to polling when the stream keeps failing, resuming after the last seq it got', async () => {
    const dropped = await through({ kind: 'drop-events' });
    expect((await loadWithProgress(dropped.client)).map((m) => m.seq)).toEqual([0, 1, 2, 3]);
    expect(dropped.proxy.streams.length).toBeGreaterThan(1);
    expect(dropped.proxy.requests.some((u) => u.includes('/progress'))).toBe(true);
    // Cut after two events, then every reconnection cut at once: no message twice or missing.
    const cut = await through({ kind: 'cut-events', events: 2, connections: 100 });
    const messages = await loadWithProgress(cut.client);
    expect(messages.map((m) => m.seq)).toEqual([0, 1, 2, 3]);
  });

  it('cancels the job when aborted while following its stream', async () => {
    const controller = new AbortController();
    let jobId = '';
    const loading = client.load('slow-sphere', { steps: 200, step_ms: 50 }, {
      room: room(),
      signal: controller.signal,
      onStart: (s) => (jobId = s.job_id),
      onProgress: () => controller.abort(),
    });
    const error = await loading.then(() => null, (e: unknown) => e);
    expect(isAbortError(error)).toBe(true);
    const end = await collect(client.followJob(jobId));
    expect(end.at(-1)).toEqual({ event: 'error', data: { job_id: jobId, status: 'error', error: 'cancelled' } });
  });
});
