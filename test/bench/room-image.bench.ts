/**
 * @module room-image.bench
 * `npm run bench room-image`: the picture of a room (`GET /api/rooms/{room}/image`) on a host
 * process, its entry a 256³ float32 volume already computed and held:
 * 1. a 512 × 512 picture of the volume alone, as the room's entry (median and best of 5);
 * 2. a 512 × 512 picture of a scene of that volume with a 100,000-triangle mesh in its frame
 *    (both span about the unit cube);
 * 3. a 64 × 64 picture of the same volume: what a picture costs besides its pixels (finding the
 *    result, the thread hand-over, the PNG, HTTP).
 */
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
    await send(`${sceneRoom}/layers`, 'POST', { id: 'mesh', source: { function: 'grid_mesh', params: { triangles: 100_000 } } });
    await picture(`${sceneRoom}/image?w=64&h=64`);
    const scene = await timeOf(() => picture(`${sceneRoom}/image?w=512&h=512`));
    lines.push(
      `512 × 512 picture of a scene (that volume + a 100,000-triangle mesh in its frame): ` +
        `median ${fmt(median(scene), 0)} ms, best ${fmt(Math.min(...scene), 0)} ms`,
    );

    const small = await timeOf(() => picture(`${volumeRoom}/image?w=64&h=64`));
    lines.push(`64 × 64 picture of the same volume (the cost besides the pixels): median ${fmt(median(small), 0)} ms, best ${fmt(Math.min(...small), 0)} ms`);
  } finally {
    host.child.kill('SIGTERM');
  }
  return { name: 'room pictures', lines };
}
