/**
 * A built bundle is self-contained: plain Node (no tsx, another cwd) imports it and runs its
 * functions, with local helpers, npm dependencies and the SDK bundled in, names kept.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runNode, runVitrine, sampleShapesPlugin, tempDir, writeFiles } from './helpers/run-cli.ts';

describe('built bundles in plain Node', { timeout: 240_000 }, () => {
  it('imports the bundle and runs a function with local helpers and an npm dependency', async () => {
    const root = tempDir();
    writeFiles(path.join(root, 'src'), sampleShapesPlugin());
    writeFiles(path.join(root, 'src'), {
      'vectors/index.ts': `import { Vector3 } from 'three';
import { decodeEnvelope } from 'vitrine';
import type { PointCloudResult } from 'vitrine';

/** Points along a direction, computed with three's Vector3 (bundled from node_modules). */
export async function line(count = 4, step = 0.5): Promise<PointCloudResult> {
  const points = new Float32Array(count * 3);
  const direction = new Vector3(1, 2, 2).normalize().multiplyScalar(step);
  for (let i = 0; i < count; i++) points.set([direction.x * i, direction.y * i, direction.z * i], i * 3);
  return { points, scalars: new Float32Array([typeof decodeEnvelope === 'function' ? 1 : 0]) };
}
`,
    });
    const build = await runVitrine(['build', 'src', '--out', 'out'], root);
    expect(build.stderr).toBe('');
    expect(build.code).toBe(0);

    const elsewhere = tempDir('vitrine-import-');
    const shapes = pathToFileURL(path.join(root, 'out', 'shapes', 'index.mjs')).href;
    const vectors = pathToFileURL(path.join(root, 'out', 'vectors', 'index.mjs')).href;
    const script = `
      const shapes = await import(${JSON.stringify(shapes)});
      const vectors = await import(${JSON.stringify(vectors)});
      const reports = [];
      const mesh = shapes.ring(2, 'fine', 8, { report: (text) => reports.push(text) });
      const cloud = await vectors.line(3, 3);
      console.log(JSON.stringify({
        name: shapes.ring.name,
        exported: Object.keys(shapes).sort(),
        vertexCount: mesh.vertices.length / 3,
        indices: mesh.indices.length,
        firstVertex: Array.from(mesh.vertices.slice(0, 3)),
        reports,
        points: Array.from(cloud.points),
        sdk: cloud.scalars[0],
      }));`;
    const run = await runNode(['--input-type=module', '-e', script], elsewhere);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const result = JSON.parse(run.stdout);
    expect(result.name).toBe('ring');
    expect(result.exported).toEqual(['circumference', 'ring', 'specimens']);
    expect(result.vertexCount).toBe(16);
    expect(result.indices).toBe(48);
    expect(result.firstVertex).toEqual([2, 0, 0]);
    expect(result.reports).toEqual(['building']);
    expect(result.points.map((v: number) => Math.round(v * 1000) / 1000)).toEqual([0, 0, 0, 1, 2, 2, 2, 4, 4]);
    expect(result.sdk).toBe(1);
  });
});
