/**
 * Clients that stop reading a large JSON result hold no copy of their own: the host encodes
 * it once and every response writes from those shared bytes. Measured on a real host process
 * (its resident memory) with real sockets that never read past the first bytes.
 */
import net from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { spawnFixtureHost } from '../helpers/fixture-host.ts';
import { killAllHosts, type RunningHost } from '../helpers/spawn-host.ts';
import { rssBytes } from '../helpers/process-rss.ts';
import { waitFor } from '../helpers/wait-for.ts';

afterAll(killAllHosts);


/** Sends the request, waits for the first bytes of the answer, then stops reading. */
function stalledReader(port: number, body: string): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => {
      socket.write(
        `POST /api/processing/invoke HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ` +
        `${Buffer.byteLength(body)}\r\n\r\n${body}`,
      );
    });
    socket.once('data', (chunk) => {
      socket.pause();
      if (!chunk.toString('latin1').startsWith('HTTP/1.1 200')) reject(new Error(chunk.toString('latin1').slice(0, 200)));
      else resolve(socket);
    });
    socket.once('error', reject);
  });
}

/**
 * The host's resident memory once it is done with what the readers asked of it: it has
 * answered a request sent after them (so its event loop has come round since it wrote to
 * their sockets), and two readings a quarter of a second apart differ by less than a MiB.
 */
async function settledRss(host: RunningHost): Promise<number> {
  expect((await fetch(`${host.url}/healthz`)).status).toBe(200);
  const pid = host.child.pid!;
  // The first reading only starts the comparison; each later one is a quarter second after it.
  let last: number | undefined;
  return waitFor(() => {
    const now = rssBytes(pid);
    const steady = last !== undefined && Math.abs(now - last) < 1024 * 1024;
    last = now;
    return steady ? now : undefined;
  }, "the host's resident memory to settle", 30_000, 250);
}

describe('stalled readers of a large JSON result', () => {
  it('seven more clients that never read add less than one encoding between them', { timeout: 180_000 }, async () => {
    const host = await spawnFixtureHost(['--no-viewer', '--log-level', 'warn']);
    const body = JSON.stringify({ function_name: 'cloud', kwargs: { count: 1_200_000 }, room_id: 'stalled' });
    // One complete read computes and caches the result and shows the encoding's size.
    const first = await fetch(`${host.url}/api/processing/invoke`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    const encodingBytes = (await first.arrayBuffer()).byteLength;
    expect(encodingBytes).toBeGreaterThan(40 * 1024 * 1024);
    // The first stalled reader pays for the encoding (and the encode thread's working memory);
    // what the next seven add is what each further reader costs.
    const sockets = [await stalledReader(host.port, body)];
    const withOne = await settledRss(host);
    for (let i = 0; i < 7; i++) sockets.push(await stalledReader(host.port, body));
    const growth = (await settledRss(host)) - withOne;
    for (const socket of sockets) socket.destroy();
    // A copy per reader would be seven more encodings; shared bytes cost each reader only its
    // socket buffers.
    expect(growth).toBeLessThan(encodingBytes);
    await host.stop();
  });
});
