/**
 * Builds a folder of fixture plugins under test/fixtures with the real `vitrine build` CLI into
 * a temp folder, once per folder and test process, and gives the plugins directory. A process
 * runs many test files in turn, and all of them get the same folder: a test never writes into
 * it or removes it (one that needs to change plugins builds its own).
 */
import { execFile } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { CLI, REPO } from './cli-path.ts';

const built = new Map<string, Promise<string>>();

/** The built plugins of `test/fixtures/<folder>` (a nested folder such as `federation/plugins` too). */
export function builtFixture(folder: string): Promise<string> {
  let dir = built.get(folder);
  if (!dir) {
    dir = (async () => {
      const out = await mkdtemp(join(tmpdir(), `vitrine-${folder.replaceAll('/', '-')}-`));
      await promisify(execFile)(process.execPath, [CLI, 'build', join(REPO, 'test/fixtures', folder), '--out', out], { cwd: REPO });
      return out;
    })();
    built.set(folder, dir);
  }
  return dir;
}
