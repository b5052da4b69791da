/**
 * The headset client (Ascribe-XR, a `GodotEngine/` user agent that cannot ask for options) gets a
 * remote volume within its profile: `uint8` over the level's value range, at most 256 samples an
 * axis, made from the finest level that fits, whose chunks alone are read from the remote.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeEnvelope, type DecodedVolume } from '../../core/envelope/decode-envelope.ts';
import { fileTestApp } from '../helpers/create-test-app.ts';
import { halved, samplesOf, startRemoteServer, writeV05, type LevelData, type RemoteServer } from '../helpers/zarr-remote.ts';

const GODOT = { 'user-agent': 'GodotEngine/4.3.stable.official (Linux)' };

let remote: RemoteServer;
let levels: LevelData[];
beforeAll(async () => {
  remote = await startRemoteServer();
  // 600 samples along z: level 0 and level 1 (300) are past the profile's 256, level 2 (150) fits.
  const level0: LevelData = { shape: [600, 8, 8], data: samplesOf('uint16', 600 * 8 * 8, 7) };
  levels = [level0, halved(level0, 'zyx')];
  levels.push(halved(levels[1]!, 'zyx'));
  const spec = { path: 'long.ome.zarr', axes: 'zyx', dtype: 'uint16' as const, chunks: [32, 8, 8], compression: 'zstd' as const, scale: [1, 1, 1] };
  await writeV05(remote.files, { ...spec, levels }, [2, 1, 1]);
});
afterAll(() => remote?.close());

const host = fileTestApp(async () => ({ remotes: { lab: remote.url } }));

/** The remote's chunk reads (shard indexes and inner chunks) by level. */
const levelsRead = () => new Set(remote.sent.paths.filter((p) => p.includes('/c/')).map((p) => p.split('/')[1]));

describe('a remote volume delivered to the headset client', () => {
  it('is uint8 over its value range, at most 256 an axis, read from the level that fits alone', async () => {
    const put = await host.app.inject({ method: 'PUT', url: '/api/specimens/long', payload: { remote: 'lab/long.ome.zarr' } });
    expect(put.statusCode, put.body).toBe(201);
    remote.reset();
    const res = await host.app.inject({ url: '/api/specimens/long/data', headers: GODOT });
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    expect(res.headers['x-remote-level']).toBe('2');
    expect([...levelsRead()]).toEqual(['2']);

    const volume = decodeEnvelope(res.rawPayload) as DecodedVolume;
    expect(volume.type).toBe('volume');
    expect(volume.dtype).toBe('uint8');
    expect(volume.shape).toEqual([150, 2, 2]);
    // The level's own values mapped over their range, as the test works them out itself.
    const own = Array.from(levels[2]!.data);
    const [lo, hi] = [Math.min(...own), Math.max(...own)];
    expect(volume.value_range).toEqual([lo, hi]);
    expect(Array.from(volume.data)).toEqual(own.map((v) => Math.round(((v - lo) * 255) / (hi - lo))));
  });

  it('gives way to options the client asks for itself', async () => {
    const res = await host.app.inject({ url: '/api/specimens/long/data?dtype=uint16&max_dim=400', headers: GODOT });
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    expect(res.headers['x-remote-level']).toBe('1');
    const volume = decodeEnvelope(res.rawPayload) as DecodedVolume;
    expect(volume.dtype).toBe('uint16');
    expect(volume.shape).toEqual([300, 4, 4]);
  });
});
