/**
 * @module example-plugins
 * The example plugins as `npm start` serves them: build/out, which `npm test` builds before the
 * tests run. A test that serves them reads that folder rather than building them again; one
 * run alone needs `node core/cli/vitrine.mjs build` first, and is told so.
 */
import { existsSync, mkdtempSync, readdirSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO } from './cli-path.ts';

/** build/out, once every example plugin of plugins/ has a manifest there; throws naming those that do not. */
export function builtExamplePlugins(): string {
  const out = join(REPO, 'build/out');
  const isPlugin = (name: string) => ['index.ts', 'plugin.py'].some((entry) => existsSync(join(REPO, 'plugins', name, entry)));
  const missing = readdirSync(join(REPO, 'plugins')).filter(isPlugin).filter((name) => !existsSync(join(out, name, 'manifest.json')));
  if (missing.length > 0) throw new Error(`build/out lacks ${missing.join(', ')}: run node core/cli/vitrine.mjs build first`);
  return out;
}

const chosen = new Map<string, string>();

/**
 * A plugins folder holding only the named example plugins (links into build/out), made once per
 * test process for each set of names. A host on build/out starts the Python example's warm
 * processes beside it; one that needs only some TypeScript examples is served these alone.
 */
export function someExamplePlugins(...names: string[]): string {
  const key = [...names].sort().join(',');
  let dir = chosen.get(key);
  if (!dir) {
    const out = builtExamplePlugins();
    dir = mkdtempSync(join(tmpdir(), 'vitrine-examples-'));
    for (const name of names) symlinkSync(join(out, name), join(dir, name));
    chosen.set(key, dir);
  }
  return dir;
}
