/**
 * `vitrine dev` with a Python plugin: a saved `plugin.py` or sibling file is read again and
 * swapped into the running host (`reloaded <plugin> in <N> ms`, a `reload` event), the bundle
 * folder follows the sources, bytecode caches rebuild nothing, and an unsupported annotation
 * prints file:line:col, is published as `build-error`, and leaves the last good build serving.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnHost, type RunningHost } from '../helpers/spawn-host.ts';
import { openStream, type StreamReader } from '../helpers/sse-reader.ts';
import { TEST_PYTHON } from '../helpers/test-python.ts';

function pluginSource(size: string, extra = ''): string {
  return `from vitrine import MeshResult

from .shape import corners


def tri(size: float = ${size}${extra}) -> MeshResult:
    """A triangle."""
    return MeshResult(vertices=corners(size), indices=[0, 1, 2])


specimens = [{"id": "tri", "function": "tri", "display_name": "Triangle"}]
`;
}

const SHAPE = 'def corners(size):\n    return [0, 0, 0, size, 0, 0, 0, size, 0]\n';

let root: string;
let dev: RunningHost;
let events: StreamReader;

const file = (...parts: string[]) => path.join(root, 'plugins', 'tri', ...parts);
/** The x of the triangle's second corner as the host's Python processes compute it now. */
const served = async () =>
  (
    (await (
      await fetch(`${dev.url}/api/processing/invoke`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"function_name":"tri"}' })
    ).json()) as { vertices: number[] }
  ).vertices[3];
const sizeDefault = async () =>
  ((await (await fetch(`${dev.url}/api/processing/functions/tri/schema`)).json()) as { properties: { size: { default: number } } }).properties.size.default;

beforeAll(async () => {
  root = mkdtempSync(path.join(tmpdir(), 'vitrine-dev-python-'));
  mkdirSync(file(), { recursive: true });
  writeFileSync(file('plugin.py'), pluginSource('1'));
  writeFileSync(file('shape.py'), SHAPE);
  dev = await spawnHost(['plugins', '--port', '0', '--specimens', 'none', '--pool-size', '1', '--log-level', 'warn'], {
    cwd: root,
    command: 'dev',
    env: { VITRINE_PYTHON: TEST_PYTHON },
  });
  events = await openStream(`${dev.url}/api/events`);
});

afterAll(async () => {
  events?.close();
  await dev?.stop();
});

describe('vitrine dev with a Python plugin', () => {
  it('builds it at start and serves its schema and specimen', async () => {
    expect(dev.stdout()).toMatch(/built 1 of 1 plugin into build\/out/);
    expect(await sizeDefault()).toBe(1);
    const list = (await (await fetch(`${dev.url}/api/specimens/`)).json()) as { id: string }[];
    expect(list.map((s) => s.id)).toEqual(['tri']);
  });

  it('reloads a saved plugin.py; a new bytecode cache before it rebuilds nothing', async () => {
    const from = events.events.length;
    mkdirSync(file('__pycache__'), { recursive: true });
    writeFileSync(file('__pycache__', 'shape.cpython-311.pyc'), 'bytecode');
    writeFileSync(file('plugin.py'), pluginSource('2'));
    // File events are seen in the order they happened: once plugin.py's reload is in, the
    // cache's events were handled first, and a reload for them would have come before it.
    const reload = await events.next((e) => e.event === 'reload', from);
    expect(events.events.slice(from).filter((e) => e.event === 'reload')).toHaveLength(1);
    expect(reload.data).toMatchObject({ plugin: 'tri', functions: ['tri'], specimens: ['tri'] });
    expect(await sizeDefault()).toBe(2);
    expect(await served()).toBe(2);
    await expect.poll(() => dev.stdout()).toMatch(/reloaded tri in \d+ ms/);
  });

  it('reloads when a sibling module changes, and the bundle folder carries the new file', async () => {
    const from = events.events.length;
    const changed = SHAPE.replace('size, 0, 0, 0', 'size * 2, 0, 0, 0');
    writeFileSync(file('shape.py'), changed);
    await events.next((e) => e.event === 'reload', from);
    expect(readFileSync(path.join(root, 'build', 'out', 'tri', 'shape.py'), 'utf8')).toBe(changed);
    expect(await served()).toBe(4);
  });

  it('prints an annotation error with file:line:col, publishes it, and keeps the last good build', async () => {
    const from = events.events.length;
    writeFileSync(file('plugin.py'), pluginSource('3', ', when: datetime = None'));
    const failed = await events.next((e) => e.event === 'build-error', from);
    expect(failed.data).toMatchObject({ plugin: 'tri', errors: [{ code: 'VITRINE_SCHEMA_100', line: 6, column: 32 }] });
    await expect
      .poll(() => dev.stderr())
      .toMatch(/plugins\/tri\/plugin\.py:6:32 error VITRINE_SCHEMA_100 unsupported parameter type \[function 'tri', parameter 'when'\]/);
    expect(await sizeDefault()).toBe(2);
    writeFileSync(file('plugin.py'), pluginSource('3'));
    await events.next((e) => e.event === 'reload', from);
    expect(await sizeDefault()).toBe(3);
  });
});
