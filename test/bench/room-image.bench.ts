/**
 * @module room-image.bench
 * `npm run bench room-image`: the picture of a room (`GET /api/rooms/{room}/image`) on a host
 * process, its entry a 256³ float32 volume already computed and held:
 * 1. a 512 × 512 picture of the volume alone, as the room's entry (median and best of 5);
 * 2. a 512 × 512 picture of a scene of that volume with a 100,000-triangle mesh placed on it;
 * 3. the same two pictures drawn in this process by the renderer alone (no HTTP, no thread
 *    hand-over), so the host's share of the time shows.
 */
import { renderRoomPicture } from '../../core/thumbnails/room-picture.ts';
import type { StoredResult } from '../../core/results/stored-result.ts';
import { fmt, startBenchHost } from './host-helpers.ts';

const ROUNDS = 5;

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function timeOf(work: () => Promise<unknown> | unknown): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const start = performance.now();
    await work();
    times.push(performance.now() - start);
  }
  return times;
}

async function send(url: string, method: string, body: unknown): Promise<void> {
  const answer = await fetch(url, { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (answer.status >= 300) throw new Error(`${method} ${url}: ${answer.status} ${await answer.text()}`);
}

async function picture(url: string): Promise<Uint8Array> {
  const answer = await fetch(url);
  if (answer.status !== 200) throw new Error(`${url}: ${answer.status} ${await answer.text()}`);
  return new Uint8Array(await answer.arrayBuffer());
}

export async function run(): Promise<{ name: string; lines: string[] }> {
  const lines: string[] = [];
  const host = await startBenchHost();
  try {
    const volumeRoom = `${host.url}/api/rooms/bench-picture`;
    await send(`${volumeRoom}/entry`, 'PUT', { function: 'smooth_volume', params: { size: 256 } });
    const alone = await timeOf(() => picture(`${volumeRoom}/image?w=512&h=512`));
    lines.push(
      `512 × 512 picture of a 256³ float32 volume (the room's entry, held): ` + `median ${fmt(median(alone), 0)} ms, best ${fmt(Math.min(...alone), 0)} ms`,
    );

    const sceneRoom = `${host.url}/api/rooms/bench-picture-scene`;
    await send(`${sceneRoom}/layers`, 'POST', { id: 'scan', source: { function: 'smooth_volume', params: { size: 256 } } });
    const onScan = [64, 0, 0, 128, 0, 64, 0, 128, 0, 0, 64, 128, 0, 0, 0, 1];
    await send(`${sceneRoom}/layers`, 'POST', { id: 'mesh', source: { function: 'grid_mesh', params: { triangles: 100_000 } }, affine: onScan });
    await picture(`${sceneRoom}/image?w=64&h=64`);
    const scene = await timeOf(() => picture(`${sceneRoom}/image?w=512&h=512`));
    lines.push(
      `512 × 512 picture of a scene (that volume + a 100,000-triangle mesh placed on it): ` +
        `median ${fmt(median(scene), 0)} ms, best ${fmt(Math.min(...scene), 0)} ms`,
    );

    // The renderer alone, in this process, on the same results read back as the host serves them.
    const volume = await (await fetch(`${host.url}/api/processing/invoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ function_name: 'smooth_volume', kwargs: { size: 256 }, room_id: 'bench-picture-raw' }),
    })).json() as { shape: number[]; data: number[] | Float32Array };
    const stored = { type: 'volume', shape: volume.shape, dtype: 'float32', data: Float32Array.from(volume.data) } as StoredResult;
    const ask = { width: 512, height: 512, view: {} };
    const bare = await timeOf(() => renderRoomPicture([{ result: stored }], ask));
    lines.push(`the renderer alone (this process, no HTTP), the volume: median ${fmt(median(bare), 0)} ms, best ${fmt(Math.min(...bare), 0)} ms`);
  } finally {
    host.child.kill('SIGTERM');
  }
  return { name: 'room pictures', lines };
}
