/**
 * A folder of the plugins directory without a manifest.json is no bundle: it is left out, and
 * the reload's `problems` says so (bytecode caches aside), as the host's log does at start.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createTestApp } from '../helpers/create-test-app.ts';

describe('a plugin folder without manifest.json', () => {
  it('is named in the reload’s problems, not skipped in silence', async () => {
    const plugins = mkdtempSync(path.join(tmpdir(), 'vitrine-plugins-'));
    mkdirSync(path.join(plugins, 'copied'));
    writeFileSync(path.join(plugins, 'copied', 'index.mjs'), 'export function shape() {}\n');
    mkdirSync(path.join(plugins, '__pycache__'));
    const app = await createTestApp({ pluginsDir: plugins, specimensDir: null });
    const reloaded = (await app.inject('/api/specimens/reload')).json() as { plugins: number; problems: string[] };
    expect(reloaded.plugins).toBe(0);
    expect(reloaded.problems).toEqual([
      `plugin folder copied: no manifest.json in ${path.join(plugins, 'copied')}, so it is not loaded (a bundle folder is what vitrine build writes)`,
    ]);
  });
});
