/**
 * A plugins directory holding the fixture bundles plus `input-fixtures`, a bundle written by
 * hand (manifest and module) whose functions take inputs: their schemas carry
 * `x-vitrine-input` as the build writes it, so these tests do not depend on the generator.
 */
import { cp, mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fixturePluginsDir } from './fixture-plugins.ts';

const MODULE = `
export function measure(volume, scale, progress) {
  progress?.report('measuring', 0.5);
  let sum = 0;
  for (let i = 0; i < volume.data.length; i++) sum += volume.data[i];
  const shared = volume.data.buffer instanceof SharedArrayBuffer ? 1 : 0;
  return {
    vertices: new Float32Array([...volume.shape, sum * scale, volume.data.length, (volume.spacing ?? [-1])[0], shared, volume.type === 'volume' ? 1 : 0, 0]),
    indices: new Uint32Array([0, 1, 2]),
  };
}

export function count_mesh(mesh, progress) {
  progress?.report('counting', 1);
  return {
    vertices: new Float32Array([mesh.vertices.length / 3, mesh.indices.length / 3, mesh.type === 'mesh' ? 1 : 0, 0, 0, 0, 0, 0, 0]),
    indices: new Uint32Array([0, 1, 2]),
  };
}

export async function slow_ramp(n, progress) {
  for (let i = 0; i < 3; i++) {
    progress?.report('ramp step ' + i, i / 3);
    // One step of the function's slow work, not a wait.
    await new Promise((r) => setTimeout(r, 20));
  }
  const data = new Float32Array(n * n * n).map((_, i) => i);
  return { shape: [n, n, n], dtype: 'float32', data };
}
`;

const input = (type: string, fallback?: unknown) => ({
  type: 'object',
  'x-vitrine-input': type,
  ...(fallback === undefined ? {} : { default: fallback }),
});

const fn = (name: string, returnType: string, params: [string, Record<string, unknown>][], required: string[] = []) => ({
  name,
  return_type: returnType,
  async: name === 'slow_ramp',
  parameters: [...params.map(([p]) => ({ name: p, kind: 'value' })), { name: 'progress', kind: 'reporter' }],
  reporter_parameter: 'progress',
  signal_parameter: null,
  schema: {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    title: name,
    type: 'object',
    properties: Object.fromEntries(params),
    ...(required.length ? { required } : {}),
  },
  source: { file: 'index.ts', line: 1 },
});

const MANIFEST = {
  $comment: 'Written by hand for the input tests.',
  manifest_version: 1,
  plugin: 'input-fixtures',
  bundle: 'index.mjs',
  functions: [
    fn('measure', 'mesh', [['volume', input('volume', { specimen: 'vol' })], ['scale', { type: 'number', default: 1 }]]),
    fn('count_mesh', 'mesh', [['mesh', input('mesh')]], ['mesh']),
    fn('slow_ramp', 'volume', [['n', { type: 'integer', default: 3 }]]),
  ],
  specimens: [
    { id: 'slow-ramp', function_name: 'slow_ramp', display_name: 'Slow ramp', description: '', tags: [], story: null, thumbnail: null },
    { id: 'measured', function_name: 'measure', display_name: 'Measured', description: '', tags: [], story: null, thumbnail: null },
  ],
};

let made: Promise<string> | null = null;

export function inputPluginsDir(): Promise<string> {
  made ??= (async () => {
    const dir = await mkdtemp(join(tmpdir(), 'vitrine-input-plugins-'));
    await cp(await fixturePluginsDir(), dir, { recursive: true });
    await mkdir(join(dir, 'input-fixtures'));
    await writeFile(join(dir, 'input-fixtures', 'index.mjs'), MODULE);
    await writeFile(join(dir, 'input-fixtures', 'manifest.json'), JSON.stringify(MANIFEST, null, 2));
    return dir;
  })();
  return made;
}
