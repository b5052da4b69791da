import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { PROTOCOL_VERSION } from '../../core/federation/wire-messages.ts';
import { listenTestApp } from '../helpers/raw-http.ts';
import { waitFor } from '../helpers/wait-for.ts';

function open(url: string): Promise<WebSocket> {
  const ws = new WebSocket(url);
  return new Promise((resolve, reject) => {
    ws.once('open', () => resolve(ws));
    ws.once('error', reject);
  });
}

function closed(ws: WebSocket): Promise<number> {
  return new Promise((resolve) => ws.once('close', (code) => resolve(code)));
}

function nextMessage(ws: WebSocket): Promise<{ t: string }> {
  return new Promise((resolve) => ws.once('message', (data) => resolve(JSON.parse(String(data)) as { t: string })));
}

describe('relay frame limit', () => {
  it('closes with 1009 a connection that sends a large frame before its hello is accepted', async () => {
    const { url } = await listenTestApp({ relay: true, token: 'secret' });
    const ws = await open(`${url.replace('http', 'ws')}/ws/federation/w1`);
    const code = closed(ws);
    ws.send(Buffer.alloc(1024 * 1024));
    expect(await code).toBe(1009);
  });

  it('refuses a large first text message too, but takes large messages once the hello is accepted', async () => {
    const { url } = await listenTestApp({ relay: true, token: 'secret' });
    const big = await open(`${url.replace('http', 'ws')}/ws/federation/w1`);
    const bigClosed = closed(big);
    big.send(JSON.stringify({ t: 'hello', version: PROTOCOL_VERSION, worker_id: 'w1', token: 'secret', pad: 'x'.repeat(100_000) }));
    expect(await bigClosed).toBe(1009);

    const ws = await open(`${url.replace('http', 'ws')}/ws/federation/w2`);
    const welcome = nextMessage(ws);
    ws.send(JSON.stringify({ t: 'hello', version: PROTOCOL_VERSION, worker_id: 'w2', token: 'secret' }));
    expect((await welcome).t).toBe('welcome');
    let closeCode: number | null = null;
    ws.once('close', (c) => (closeCode = c));
    const specimens = Array.from({ length: 2000 }, (_, i) => ({
      id: `s${i}`,
      display_name: 'x'.repeat(500),
      description: '',
      type: 'mesh',
      tags: [],
      is_dynamic: false,
    }));
    ws.send(JSON.stringify({ t: 'register', specimens, functions: [] }));
    const workers = async () => (await (await fetch(`${url}/api/federation/workers`)).json()) as { worker_id: string; specimens: number }[];
    await waitFor(
      async () => ((await workers()).some((w) => w.worker_id === 'w2' && w.specimens === 2000) ? true : undefined),
      "w2's 2000 specimens to be registered",
    );
    expect((await workers()).find((w) => w.worker_id === 'w2')?.specimens).toBe(2000);
    expect(closeCode).toBeNull();
    ws.close();
  });
});
