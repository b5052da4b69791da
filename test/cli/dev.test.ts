/**
 * `vitrine dev`: a saved plugin is rebuilt alone and swapped into the running host, announced
 * on stdout and as a `reload` event; other plugins' cache entries, open event streams and a
 * running job of the old version survive; a build error prints file:line:col, is published as
 * `build-error`, and the last good build keeps serving. A function in a second file of a plugin
 * (re-exported from index.ts) is rebuilt from that file, its manifest and bundle alike.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnHost, type RunningHost } from '../helpers/spawn-host.ts';
import { openStream, type StreamReader } from '../helpers/sse-reader.ts';
import { STATE_WAIT_MS } from '../helpers/wait-for.ts';

function alphaSource(size: string): string {
  return `import type { MeshResult } from 'vitrine';
/** A triangle. */
export function alpha_mesh(size = ${size}): MeshResult {
  return { vertices: new Float32Array([0, 0, 0, size, 0, 0, 0, size, 0]), indices: new Uint32Array([0, 1, 2]) };
}
/** A triangle that takes its time. */
export async function alpha_slow(ms = 600): Promise<MeshResult> {
  await new Promise((resolve) => setTimeout(resolve, ms)); // the plugin's slow work, not a wait
  return alpha_mesh(7);
}
export const specimens = [
  { id: 'alpha', function: 'alpha_mesh', display_name: 'Alpha' },
  { id: 'alpha-slow', function: 'alpha_slow', display_name: 'Alpha, slowly' },
];
`;
}

const BETA = `import type { MeshResult } from 'vitrine';
import { SCALE } from '../shared/scale.ts';
export function beta_mesh(size = 1): MeshResult {
  return { vertices: new Float32Array([0, 0, 0, size * SCALE, 0, 0, 0, size, 0]), indices: new Uint32Array([0, 1, 2]) };
}
`;

/** A plugin whose function lives in a second file, re-exported by its index.ts. */
const DELTA_INDEX = `export { lumpy } from './shapes.ts';
export const specimens = [{ id: 'lumpy', function: 'lumpy', display_name: 'Lumpy' }];
`;
const deltaShapes = (param: string) => `import type { MeshResult } from 'vitrine';
/** A triangle. */
export function lumpy(${param} = 1): MeshResult {
  return { vertices: new Float32Array([0, 0, 0, ${param}, 0, 0, 0, ${param}, 0]), indices: new Uint32Array([0, 1, 2]) };
}
`;

/** A plugin whose parameter type no schema has: it never builds. */
const GAMMA = alphaSource('1').replaceAll('alpha', 'gamma').replace('size = 1', 'size: Date');

const scaleFile = () => path.join(root, 'plugins', 'shared', 'scale.ts');

let root: string;
let dev: RunningHost;
let events: StreamReader;

const alphaFile = () => path.join(root, 'plugins', 'alpha', 'index.ts');
const post = (url: string, body: unknown) => fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
const sizeDefault = async () =>
  ((await (await fetch(`${dev.url}/api/processing/functions/alpha_mesh/schema`)).json()) as { properties: { size: { default: number } } }).properties.size
    .default;

/**
 * The plugins whose build errors a host stream opened now starts with. The opening events are
 * written before anything published later, so a `reload` caused after opening (shared code
 * saved again, beta rebuilt) comes after every one of them.
 */
async function standingFailures(): Promise<string[]> {
  const late = await openStream(`${dev.url}/api/events`);
  try {
    await late.next((e) => e.event === 'hello');
    writeFileSync(scaleFile(), readFileSync(scaleFile(), 'utf8'));
    const marker = await late.next((e) => e.event === 'reload' && (e.data as { plugin?: string }).plugin === 'beta');
    return late.events
      .slice(0, late.events.indexOf(marker))
      .filter((e) => e.event === 'build-error')
      .map((e) => (e.data as { plugin: string }).plugin);
  } finally {
    late.close();
  }
}

beforeAll(async () => {
  root = mkdtempSync(path.join(tmpdir(), 'vitrine-dev-'));
  for (const [name, source] of [['alpha', alphaSource('1')], ['beta', BETA], ['gamma', GAMMA], ['delta', DELTA_INDEX]] as const) {
    mkdirSync(path.join(root, 'plugins', name), { recursive: true });
    writeFileSync(path.join(root, 'plugins', name, 'index.ts'), source);
  }
  mkdirSync(path.dirname(scaleFile()));
  writeFileSync(scaleFile(), 'export const SCALE = 1;\n');
  writeFileSync(path.join(root, 'plugins', 'delta', 'shapes.ts'), deltaShapes('radius'));
  dev = await spawnHost(['plugins', '--port', '0', '--specimens', 'none', '--pool-size', '1', '--log-level', 'warn'], { cwd: root, command: 'dev' });
  events = await openStream(`${dev.url}/api/events`);
});

afterAll(async () => {
  events?.close();
  await dev?.stop();
});

describe('vitrine dev', () => {
  it('swaps in a saved plugin alone; other cache entries, streams and a running old job survive', async () => {
    expect(dev.stdout()).toMatch(/built 3 of 4 plugins/);
    expect((await post(`${dev.url}/api/processing/invoke`, { function_name: 'beta_mesh', room_id: 'beta-room' })).status).toBe(200);
    const { job_id: jobId } = (await (await post(`${dev.url}/api/specimens/alpha-slow/start`, { params: {}, room_id: 'slow-room' })).json()) as {
      job_id: string;
    };

    const from = events.events.length;
    // A folder without an index.ts is not a plugin: changes in it build nothing.
    mkdirSync(path.join(root, 'plugins', 'notes'));
    writeFileSync(path.join(root, 'plugins', 'notes', 'todo.txt'), 'later');
    writeFileSync(alphaFile(), alphaSource('2'));
    // The host sees file events in the order they happened and rebuilds in the order it saw
    // them, so once alpha's reload is in, the folder's changes (made first) have been handled:
    // a reload or a line for them would have come before it.
    const reload = await events.next((e) => e.event === 'reload', from);
    expect(events.events.slice(from).filter((e) => e.event === 'reload')).toHaveLength(1);
    expect(reload.data).toMatchObject({ plugin: 'alpha', functions: ['alpha_mesh', 'alpha_slow'], specimens: ['alpha', 'alpha-slow'] });
    expect(await sizeDefault()).toBe(2);
    await expect.poll(() => dev.stdout()).toMatch(/reloaded alpha in \d+ ms/);
    expect(dev.stdout()).not.toMatch(/notes/);
    const stats = (await (await fetch(`${dev.url}/api/processing/cache/stats`)).json()) as { entries: { room_id: string }[] };
    expect(stats.entries.map((e) => e.room_id)).toContain('beta-room');

    const status = async () => ((await (await fetch(`${dev.url}/api/jobs/${jobId}/progress`)).json()) as { status: string }).status;
    await expect.poll(status, { timeout: STATE_WAIT_MS }).toBe('done');
    expect((await fetch(`${dev.url}/api/jobs/${jobId}/result`)).status).toBe(200);
  });

  it('rebuilds the plugins that import shared code when it changes', async () => {
    const from = events.events.length;
    writeFileSync(scaleFile(), 'export const SCALE = 5;\n');
    const reload = await events.next((e) => e.event === 'reload', from);
    expect(reload.data).toMatchObject({ plugin: 'beta' });
    const res = await post(`${dev.url}/api/processing/invoke`, { function_name: 'beta_mesh', room_id: 'shared-room' });
    expect(((await res.json()) as { vertices: number[] }).vertices[3]).toBe(5);
  });

  it('rebuilds a function that lives in a second file: the schema served, the manifest and the bundle agree', async () => {
    const properties = async () =>
      Object.keys(((await (await fetch(`${dev.url}/api/processing/functions/lumpy/schema`)).json()) as { properties: object }).properties);
    expect(await properties()).toEqual(['radius']);
    for (const param of ['size', 'scale']) {
      const from = events.events.length;
      writeFileSync(path.join(root, 'plugins', 'delta', 'shapes.ts'), deltaShapes(param));
      const reload = await events.next((e) => e.event === 'reload' && (e.data as { plugin?: string }).plugin === 'delta', from);
      expect(reload.data).toMatchObject({ functions: ['lumpy'] });
      expect(await properties()).toEqual([param]);
      const manifest = readFileSync(path.join(root, 'build', 'out', 'delta', 'manifest.json'), 'utf8');
      expect(JSON.parse(manifest).functions[0].parameters.map((p: { name: string }) => p.name)).toEqual([param]);
      expect(readFileSync(path.join(root, 'build', 'out', 'delta', 'index.mjs'), 'utf8')).toContain(`function lumpy(${param} = 1)`);
    }
  });

  it('prints build errors with file:line:col, publishes them, and keeps the last good build', async () => {
    const from = events.events.length;
    writeFileSync(alphaFile(), alphaSource('2').replace('size = 2', 'size: Date'));
    const failed = await events.next((e) => e.event === 'build-error', from);
    // The unsupported parameter type comes first; the type errors it causes in the body follow.
    expect(failed.data).toMatchObject({
      plugin: 'alpha',
      errors: [
        { code: 'VITRINE_SCHEMA_100', line: 3, column: expect.any(Number) },
        { code: 'TS2769', line: 4 },
        { code: 'TS2345', line: 9 },
      ],
    });
    await expect.poll(() => dev.stderr()).toMatch(/plugins\/alpha\/index\.ts:3:\d+ error VITRINE_SCHEMA_100/);
    await expect
      .poll(() => dev.stderr())
      .toMatch(/plugins\/alpha\/index\.ts:9:21 error TS2345 type error: Argument of type 'number' is not assignable to parameter of type 'Date'\./);
    await expect.poll(() => dev.stderr()).toMatch(/alpha has 3 errors; still serving its last good build/);
    expect(await sizeDefault()).toBe(2);
    // A stream opened after the failure starts with it (and gamma's, failed since the start).
    expect(await standingFailures()).toEqual(['gamma', 'alpha']);
    writeFileSync(alphaFile(), alphaSource('3'));
    await events.next((e) => e.event === 'reload' && (e.data as { plugin?: string }).plugin === 'alpha', from);
    expect(await sizeDefault()).toBe(3);
    expect(await standingFailures()).toEqual(['gamma']);
  });

  it('says a plugin that has never built is not served (there is no last good build)', async () => {
    const from = events.events.length;
    // Said at start, and again when it is saved still broken.
    expect(dev.stderr()).toMatch(/gamma has 3 errors; it has never built, so it is not served until it does/);
    const said = dev.stderr().length;
    writeFileSync(path.join(root, 'plugins', 'gamma', 'index.ts'), GAMMA.replace('A triangle.', 'Still a triangle.'));
    await events.next((e) => e.event === 'build-error' && (e.data as { plugin?: string }).plugin === 'gamma', from);
    await expect.poll(() => dev.stderr().slice(said)).toMatch(/gamma has 3 errors; it has never built, so it is not served until it does/);
    expect(dev.stderr()).not.toMatch(/gamma has \d+ errors?; still serving/);
    expect((await fetch(`${dev.url}/api/processing/functions/gamma_mesh/schema`)).status).toBe(404);
  });
});
