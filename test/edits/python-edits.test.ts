/**
 * The notebook client's edits (a real interpreter against a real host process): `room.edit`
 * merges and paints a labels layer, `room.edits(layer)` lists them with who made them,
 * `room.undo(seq)` finds the layer from the room's log and undoes newest first, and a bad field
 * raises the host's words naming it.
 */
import { execFile } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { PYTHON_MODULE_DIR } from '../../core/python/python-module-dir.ts';
import { spawnFixtureHost } from '../helpers/fixture-host.ts';
import { room } from '../helpers/room.ts';
import { killAllHosts } from '../helpers/spawn-host.ts';
import { TEST_PYTHON } from '../helpers/test-python.ts';

afterAll(killAllHosts);

function python(script: string, url: string): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    const env = { ...process.env, PYTHONPATH: PYTHON_MODULE_DIR, PYTHONDONTWRITEBYTECODE: '1', VITRINE_URL: url };
    execFile(TEST_PYTHON, ['-c', script], { env, timeout: 120_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, output: stdout + stderr }),
    );
  });
}

describe('edits from the notebook client', () => {
  it('edits, lists and undoes a labels layer', async () => {
    const host = await spawnFixtureHost(['--no-viewer', '--pool-size', '1']);
    const r = room('py-edits');
    const script = [
      'import os, json, vitrine',
      `room = vitrine.Client(os.environ["VITRINE_URL"]).room(${JSON.stringify(r)})`,
      'layer = room.add(function="label_blobs", params={"size": 32, "count": 6, "dtype": "uint16", "stride": 100}, kind="labels")',
      'merged = room.edit(layer, "merge", segments=[100, 200])',
      '# The middle of what the merge changed (blob 200, an ellipsoid), painted over: the merge cannot be undone before it.',
      'box = merged["box"]',
      'middle = [(a + b - 1) // 2 for a, b in zip(box["from"], box["to"])]',
      'painted = room.edit(layer, "paint", label=9, center=middle, radius=1, only=100)',
      'try:',
      '    room.edit(layer, "paint", label=9, center=[16, 99, 16], radius=3)',
      'except vitrine.VitrineError as error:',
      '    print("refused", error.status, "center" in str(error))',
      'try:',
      '    room.undo(merged["seq"])',
      'except vitrine.VitrineError as error:',
      '    print("conflict", error.status)',
      'room.undo(painted["seq"])',
      'undone = room.undo(merged["seq"])',
      'listed = room.edits(layer)',
      'print(json.dumps([[e["edit"]["op"], e["by"], "undone_by" in e] for e in listed], separators=(",", ":")))',
      'print(undone["version"])',
    ].join('\n');
    const ran = await python(script, host.url);
    expect(ran.output.trim().split('\n')).toEqual([
      'refused 400 True',
      'conflict 409',
      JSON.stringify([
        ['merge', 'anonymous', true],
        ['paint', 'anonymous', true],
        ['undo', 'anonymous', false],
        ['undo', 'anonymous', false],
      ]),
      '4',
    ]);
    expect(ran.code).toBe(0);
  });
});
