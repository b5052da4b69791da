/**
 * `vitrine/testing` with inputs: an input names a specimen on disk or one the plugin
 * declares, or a local file as an upload; the example plugins that take inputs run this way.
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadPlugin } from '../../core/testing/index.ts';
import { binaryStl } from '../helpers/upload-files.ts';
import { REPO } from '../helpers/cli-path.ts';

const specimens = join(REPO, 'specimens');

describe('vitrine/testing inputs', () => {
  it('contours the phantom from the specimens directory, by name and by default', async () => {
    const plugin = await loadPlugin(join(REPO, 'plugins/isosurfaces'), { specimens });
    const named = await plugin.call('isosurface', { volume: { specimen: 'ct-head-phantom' } });
    expect(named.result.type).toBe('mesh');
    expect((named.result as { indices: Uint32Array }).indices.length).toBeGreaterThan(3000);
    expect(named.values.volume).toEqual({ specimen: 'ct-head-phantom' });
    const byDefault = await plugin.call('isosurface', {});
    expect((byDefault.result as { vertices: Float32Array }).vertices).toEqual((named.result as { vertices: Float32Array }).vertices);
    expect(named.progress.at(-1)?.fraction).toBe(1);
  }, 120_000);

  it('simplifies an uploaded STL given as a file path, and refuses a wrong type or an unknown specimen', async () => {
    const plugin = await loadPlugin(join(REPO, 'plugins/mesh-tools'), { specimens });
    const dir = await mkdtemp(join(tmpdir(), 'vitrine-testing-inputs-'));
    await writeFile(join(dir, 'cube.stl'), binaryStl());
    const run = await plugin.call('smooth_mesh', { mesh: { upload: join(dir, 'cube.stl') }, iterations: 2 });
    expect((run.result as { vertices: Float32Array }).vertices.length).toBe(8 * 3);
    await expect(plugin.call('simplify_mesh', { mesh: { specimen: 'ct-head-phantom' } })).rejects.toMatchObject({ code: 'SPC_ERR_INPUT_TYPE' });
    await expect(plugin.call('simplify_mesh', { mesh: { specimen: 'nope' } })).rejects.toMatchObject({ code: 'SPC_ERR_INPUT_UNKNOWN' });
  }, 120_000);
});
