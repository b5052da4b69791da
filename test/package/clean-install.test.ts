/**
 * A contributor's first step leaves the tree as committed: `npm install` in a fresh clone
 * writes back the very lock file the repository holds, so `git status` is clean. (npm keeps
 * an optional dependency only under the root's `optionalDependencies` in the lock; a copy of
 * it among the root's `dependencies` is deleted by every install, leaving a modified lock.)
 * The install reads the npm cache first and the registry for what the cache lacks; it runs no
 * install scripts (they build native add-ons and never touch the lock). It writes the lock and
 * not node_modules (`--package-lock-only`): npm works out the same tree either way and saves
 * the lock from it, and a copy of the optional dependency among the root's dependencies is
 * deleted just the same, while unpacking some 800 packages cost the suite a minute for nothing
 * this test reads.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const REPO = fileURLToPath(new URL('../..', import.meta.url));

describe('a fresh clone after npm install', () => {
  let dir: string | undefined;
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  // A cold npm cache on a loaded machine takes minutes.
  it('has a clean git status: the lock file stays as committed', { timeout: 900_000 }, async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'vitrine-clean-install-'));
    const clone = path.join(dir, 'vitrine');
    await run('git', ['clone', '--quiet', '--no-hardlinks', REPO, clone]);
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    const install = ['install', '--package-lock-only', '--prefer-offline', '--ignore-scripts', '--no-audit', '--no-fund'];
    await run(npm, install, { cwd: clone, maxBuffer: 64 * 1024 * 1024 });
    const { stdout: status } = await run('git', ['status', '--porcelain'], { cwd: clone });
    const { stdout: diff } = await run('git', ['diff', '--stat'], { cwd: clone });
    expect(status, diff).toBe('');
  });
});
