/**
 * `--max-event-streams` through `vitrine serve` over real HTTP: the host, job and room streams
 * share the bound; past it a new stream is a 503 with Retry-After in the JSON error shape, and a
 * closed stream frees its slot. VITRINE_MAX_EVENT_STREAMS sets it too; a bad value is refused
 * with a message naming the option.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { parseServeOptions } from '../../core/cli/serve-options.ts';
import { fixturePluginsDir } from '../helpers/fixture-plugins.ts';
import { openStream, type StreamReader } from '../helpers/sse-reader.ts';
import { waitFor } from '../helpers/wait-for.ts';
import { spawnHost, type RunningHost } from '../helpers/spawn-host.ts';

const hosts: RunningHost[] = [];
const streams: StreamReader[] = [];
afterEach(async () => {
  for (const s of streams.splice(0)) s.close();
  await Promise.all(hosts.splice(0).map((h) => h.stop('SIGKILL')));
});

async function refused(url: string): Promise<void> {
  const response = await fetch(url, { headers: { accept: 'text/event-stream' } });
  expect(response.status).toBe(503);
  expect(response.headers.get('retry-after')).toBe('5');
  const body = await response.json();
  expect(body).toMatchObject({ status_code: 503, code: 'SPC_ERR_TOO_MANY_STREAMS' });
  expect(body.detail).toContain('2');
}

describe('vitrine serve --max-event-streams', () => {
  it('caps the open streams of every route together, and a closed stream frees its slot', async () => {
    const host = await spawnHost(['--port', '0', '--no-viewer', '--specimens', 'none', '--plugins', await fixturePluginsDir(), '--max-event-streams', '2']);
    hosts.push(host);
    const first = await openStream(`${host.url}/api/events`);
    streams.push(first);
    expect((await first.next()).event).toBe('hello');
    const second = await openStream(`${host.url}/api/rooms/capped/events`);
    streams.push(second);
    expect((await second.next()).event).toBe('state');
    await refused(`${host.url}/api/events`);
    await refused(`${host.url}/api/rooms/other/events`);

    second.close();
    // The slot frees once the host sees the socket close, a moment after the client closes it.
    const again = await waitFor(() => openStream(`${host.url}/api/rooms/capped/events`), 'a freed stream slot');
    streams.push(again);
    expect((await again.next()).event).toBe('state');
  });

  it('takes VITRINE_MAX_EVENT_STREAMS, and refuses a value that is not a positive integer', async () => {
    expect(parseServeOptions([], { VITRINE_MAX_EVENT_STREAMS: '7' }).host_options.maxEventStreams).toBe(7);
    expect(parseServeOptions(['--max-event-streams', '3'], { VITRINE_MAX_EVENT_STREAMS: '7' }).host_options.maxEventStreams).toBe(3);
    expect(() => parseServeOptions(['--max-event-streams', '0'], {})).toThrow('--max-event-streams must be at least 1');
    expect(() => parseServeOptions(['--max-event-streams', 'many'], {})).toThrow("--max-event-streams must be a non-negative integer, got 'many'");

    const host = await spawnHost(['--port', '0', '--no-viewer', '--specimens', 'none', '--plugins', 'none'], { env: { VITRINE_MAX_EVENT_STREAMS: '1' } });
    hosts.push(host);
    const only = await openStream(`${host.url}/api/events`);
    streams.push(only);
    await only.next();
    const response = await fetch(`${host.url}/api/events`, { headers: { accept: 'text/event-stream' } });
    expect(response.status).toBe(503);
    expect(await response.json()).toMatchObject({ code: 'SPC_ERR_TOO_MANY_STREAMS', detail: expect.stringContaining('1') });
  });
});
