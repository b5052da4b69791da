/**
 * The plant session as a scene, from the Python script shipped in docs/examples/plant-scene.py,
 * run by a real interpreter against a real host process on the example plugins: a scan, its
 * segmentation as a labels layer at opacity 0.4 and that cell's surface (a segment layer of the
 * segmentation), all in one room, each computed, with a point and a ruler on that cell, and a
 * snapshot of it; the catalog is left as it was. The room's Neuroglancer state lists the three
 * layers and the marks, the surface and the marks read in the scan's micrometres.
 * The script defaults to a 256³ volume; the test runs it at 96³ to stay quick.
 */
import { execFile } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import type { Annotation, RoomScene } from '../../core/wire/scene-types.ts';
import { PYTHON_MODULE_DIR } from '../../core/python/python-module-dir.ts';
import { room } from '../helpers/room.ts';
import { killAllHosts, spawnHost } from '../helpers/spawn-host.ts';
import { TEST_PYTHON } from '../helpers/test-python.ts';

const SCRIPT = fileURLToPath(new URL('../../docs/examples/plant-scene.py', import.meta.url));

afterAll(() => killAllHosts());

function run(args: string[]): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    const env = { ...process.env, PYTHONPATH: PYTHON_MODULE_DIR, PYTHONDONTWRITEBYTECODE: '1' };
    execFile(TEST_PYTHON, [SCRIPT, ...args], { env, timeout: 300_000, maxBuffer: 4 * 1024 * 1024 }, (error, stdout, stderr) => {
      resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, output: stdout + stderr });
    });
  });
}

describe('docs/examples/plant-scene.py', () => {
  it('puts a scan, its labels at opacity 0.4, a cell’s surface and marks on it in one room', { timeout: 300_000 }, async () => {
    // No plugins: the script's layers are its arrays and a cell's surface, which need none.
    const specimens = await mkdtemp(path.join(tmpdir(), 'vitrine-plant-'));
    const host = await spawnHost(['--port', '0', '--no-viewer', '--log-level', 'warn', '--specimens', specimens, '--plugins', 'none']);
    const r = room('plant');
    const catalog = async () => ((await (await fetch(`${host.url}/api/specimens`)).json()) as { id: string }[]).map((entry) => entry.id).sort();
    const before = await catalog();
    const result = await run(['--url', host.url, '--room', r, '--size', '96']);
    expect(result.code, `${result.output}\n--- host ---\n${host.stderr()}`).toBe(0);
    expect(result.output).toMatch(/snapshot: http:\/\/.*\/\?snapshot=[0-9a-f]{64}/);
    // What the script gave its layers is the room's: the catalog everyone sees is as it was.
    expect(await catalog()).toEqual(before);

    const scene = (await (await fetch(`${host.url}/api/rooms/${r}/scene`)).json()) as RoomScene;
    expect(scene.layers.map((l) => [l.id, l.kind])).toEqual([['scan', 'image'], ['cells', 'labels'], ['cell-3-surface', 'mesh']]);
    expect(scene.active).toBe('scan');
    const [scan, cells, surface] = scene.layers;
    expect(surface!.source).toMatchObject({ specimen: cells!.source.specimen, segment: 3 });
    expect(cells!.opacity).toBe(0.4);
    expect(scan!.result).toMatchObject({ type: 'volume' });
    expect(surface!.result).toMatchObject({ type: 'mesh' });
    const stl = new URL(surface!.result!.data_url, host.url);
    stl.searchParams.set('format', 'stl');
    const mesh = await fetch(stl);
    expect(mesh.status).toBe(200);
    const triangles = Buffer.from(await mesh.arrayBuffer()).readUInt32LE(80);
    expect(triangles).toBeGreaterThan(100);
    const volume = await fetch(`${host.url}/api/results/${scan!.result!.result_id}.zarr/0/.zarray`);
    expect(((await volume.json()) as { shape: number[]; dtype: string })).toMatchObject({ shape: [96, 96, 96], dtype: '|u1' });

    // The marks on the cell: a point at its centre, a ruler across it that the host measured.
    const { annotations } = (await (await fetch(`${host.url}/api/rooms/${r}/annotations`)).json()) as { annotations: Annotation[] };
    expect(annotations.map((mark) => [mark.kind, mark.label])).toEqual([['point', 'cell 3'], ['line', 'across']]);
    expect(annotations[1]!.length).toBeGreaterThan(10);
    expect(result.output).toMatch(/ruler across cell 3: \d+\.\d micrometer/);
    const state = (await (await fetch(`${host.url}/api/rooms/${r}/neuroglancer`)).json()) as { layers: { type: string; name: string; source: unknown }[] };
    expect(state.layers.map((layer) => [layer.type, layer.name])).toEqual([
      ['image', 'scan'], ['segmentation', 'cells'], ['mesh', 'cell-3-surface'], ['annotation', 'annotations (point)'], ['annotation', 'annotations (line)'],
    ]);
    const um = { x: [1e-6, 'm'], y: [1e-6, 'm'], z: [1e-6, 'm'] };
    for (const layer of state.layers.slice(2)) expect(layer.source).toMatchObject({ transform: { inputDimensions: um, outputDimensions: um } });
  });
});
