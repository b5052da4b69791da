/**
 * Builds test/fixtures/plugins with the real `vitrine build` CLI into a temp folder,
 * once per test process.
 */
import { execFile } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { CLI, REPO } from './cli-path.ts';
const run = promisify(execFile);

let built: Promise<string> | null = null;

/** The plugins directory holding the built fixture bundles. */
export function fixturePluginsDir(): Promise<string> {
  built ??= (async () => {
    const out = await mkdtemp(join(tmpdir(), 'vitrine-fixture-plugins-'));
    await run(process.execPath, [CLI, 'build', join(REPO, 'test/fixtures/plugins'), '--out', out], { cwd: REPO });
    return out;
  })();
  return built;
}
