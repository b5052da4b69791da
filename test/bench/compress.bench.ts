/**
 * @module compress.bench
 * `npm run bench compress`: the point-cloud and volume JSON of `/invoke` fetched plain, gzip
 * and br from a host process over loopback: bytes on the wire and time to the last byte
 * (median of 3, the result already cached so the figure is encoding plus transfer).
 */
import { request } from 'node:http';
import { spawnFixtureHost } from '../helpers/fixture-host.ts';
import { fmt, percentile } from './host-helpers.ts';

function fetchRaw(url: string, body: string, encoding: string | null): Promise<{ bytes: number; ms: number; encoding: string }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) };
    if (encoding) headers['accept-encoding'] = encoding;
    const req = request(url, { method: 'POST', headers }, (res) => {
      let bytes = 0;
      res.on('data', (chunk: Buffer) => (bytes += chunk.length));
      res.on('end', () => resolve({ bytes, ms: performance.now() - started, encoding: String(res.headers['content-encoding'] ?? 'identity') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

export async function run(): Promise<{ name: string; lines: string[] }> {
  const host = await spawnFixtureHost(['--no-viewer', '--log-level', 'warn']);
  const lines: string[] = [];
  const cases = [
    ['point cloud, 500,000 points (cloud)', { function_name: 'cloud', kwargs: { count: 500_000 } }],
    ['volume, 16 MiB uint16 (big_volume)', { function_name: 'big_volume', kwargs: { megabytes: 16 } }],
  ] as const;
  for (const [label, call] of cases) {
    const body = JSON.stringify({ ...call, room_id: `compress-${call.function_name}` });
    await fetchRaw(`${host.url}/api/processing/invoke`, body, null); // computes and caches
    const row: string[] = [];
    let plainBytes = 0;
    let plainMs = 0;
    for (const encoding of [null, 'gzip', 'br']) {
      const runs = [];
      for (let i = 0; i < 3; i++) runs.push(await fetchRaw(`${host.url}/api/processing/invoke`, body, encoding));
      const ms = percentile(runs.map((r) => r.ms), 50);
      const bytes = runs[0]!.bytes;
      if (encoding === null) [plainBytes, plainMs] = [bytes, ms];
      const againstPlain = encoding ? ` (${fmt((100 * bytes) / plainBytes, 0)}% of the bytes, ${fmt(ms / plainMs)}x the time)` : '';
      row.push(`${runs[0]!.encoding} ${fmt(bytes / 1e6, 1)} MB in ${fmt(ms, 0)} ms${againstPlain}`);
    }
    lines.push(`${label}: ${row.join('; ')}`);
  }
  await host.stop();
  return { name: 'compression of JSON results over loopback', lines };
}
