/**
 * `vitrine users` as a user runs it: `add` prints the token alone on standard output and refuses
 * a taken name (exit 1) or a bad one (exit 2); `list --json` names users without tokens;
 * `remove` of someone unknown exits 1; the data dir comes from `VITRINE_DATA_DIR` as from
 * `--data-dir`; `--data-dir none` keeps nobody and says so.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI, REPO } from '../helpers/cli-path.ts';

const dataDir = await mkdtemp(join(tmpdir(), 'vitrine-users-cli-'));
afterAll(() => rm(dataDir, { recursive: true, force: true }));

function users(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI, 'users', ...args], { cwd: REPO, env: { ...process.env, ...env } }, (error, stdout, stderr) => {
      resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

describe('vitrine users', () => {
  it('adds, refuses, lists and removes, on the data dir the environment names', async () => {
    const env = { VITRINE_DATA_DIR: dataDir };
    const added = await users(['add', 'ada@lab.org', '--admin'], env);
    expect(added.code).toBe(0);
    expect(added.stdout).toMatch(/^vt_[A-Za-z0-9_-]{43}\n$/);
    expect(added.stderr).toContain("user 'ada@lab.org' added (admin)");
    expect(await users(['add', 'ada@lab.org', '--data-dir', dataDir])).toMatchObject({ code: 1, stdout: '' });
    expect((await users(['add', 'no spaces'], env)).code).toBe(2);
    const listed = await users(['list', '--json', '--data-dir', dataDir]);
    expect(JSON.parse(listed.stdout)).toEqual([{ name: 'ada@lab.org', admin: true, created: expect.any(String) }]);
    expect(listed.stdout).not.toContain(added.stdout.trim());
    expect((await users(['remove', 'nobody'], env)).code).toBe(1);
    expect((await users(['remove', 'ada@lab.org'], env)).code).toBe(0);
    expect((await users(['list'], env)).stdout).toBe('');
    expect(await users(['list', '--data-dir', 'none'])).toMatchObject({ code: 2 });
  });
});
