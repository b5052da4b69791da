/**
 * vitrine/testing: a plugin function called exactly as the host calls it (schema checks,
 * defaults, injected reporter, result normalisation), and build errors as file:line:col.
 */
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadPlugin, PluginBuildError } from '../../core/testing/index.ts';

const FIXTURES = new URL('../fixtures/plugins/host-fixtures', import.meta.url);

describe('vitrine/testing loadPlugin', () => {
  it('fills defaults, collects progress and normalises the result', async () => {
    const plugin = await loadPlugin(FIXTURES);
    expect(plugin.name).toBe('host-fixtures');
    expect(plugin.schema('square')).toMatchObject({ type: 'object', properties: { size: { type: 'number', default: 1 } } });
    const run = await plugin.call('steps', { count: 2, delay_ms: 1 });
    expect(run.values).toEqual({ count: 2, delay_ms: 1 });
    expect(run.progress.length).toBeGreaterThan(0);
    expect(run.result.type).toBe('mesh');
    const square = await plugin.call('square');
    expect(square.values).toMatchObject({ size: 1, label: 'a' });
    expect(square.result.type === 'mesh' && square.result.vertices).toBeInstanceOf(Float32Array);
  });

  it('refuses what the host refuses, with the host error codes', async () => {
    const plugin = await loadPlugin(FIXTURES);
    await expect(plugin.call('square', { size: 'big' })).rejects.toMatchObject({ code: 'SPC_ERR_PARAM_INVALID', statusCode: 400 });
    await expect(plugin.call('square', { nope: 1 })).rejects.toMatchObject({ code: 'SPC_ERR_PARAM_UNKNOWN' });
    await expect(plugin.call('broken')).rejects.toMatchObject({ code: 'SPC_ERR_RESULT_INVALID' });
    await expect(plugin.call('explode', { message: 'kaput' })).rejects.toMatchObject({
      code: 'SPC_ERR_FUNCTION_FAILED',
      message: expect.stringContaining('kaput'),
    });
    await expect(plugin.call('missing')).rejects.toMatchObject({ code: 'SPC_ERR_FUNCTION_NOT_FOUND' });
  });

  it('rejects a plugin that does not build with file:line:col diagnostics', async () => {
    const dir = path.join(mkdtempSync(path.join(tmpdir(), 'vitrine-testing-')), 'bad');
    mkdirSync(dir);
    writeFileSync(
      path.join(dir, 'index.ts'),
      "import type { MeshResult } from 'vitrine';\nexport function f(x: Date): MeshResult {\n  return { vertices: new Float32Array(), indices: new " +
      "Uint32Array() };\n}\n",
    );
    const error = await loadPlugin(dir).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PluginBuildError);
    expect((error as PluginBuildError).diagnostics[0]).toMatch(/index\.ts:2:\d+ error VITRINE_/);
  });
});
