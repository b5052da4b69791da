/**
 * The CI lines of docs/plugins.md and build/README.md (`git fetch --depth=1 origin main`, then
 * `npx vitrine build --against git:origin/main`) run as written in the clone CI systems make:
 * `--depth=1 --single-branch` of the branch under test, where the fetch keeps main only in
 * FETCH_HEAD. They exit 1 on a branch that renamed a parameter and 0 on one whose change is
 * compatible. Only `npx vitrine` is run as the command under test (the clone installs nothing).
 */
import { execFile, execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, runVitrine, tempDir, VITRINE_BIN } from '../build/helpers/run-cli.ts';

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=Test', '-c', 'user.email=test@example.com', '-c', 'init.defaultBranch=main', ...args], {
    cwd,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** The lines of the `sh` block of `file` that runs `--against git:`. */
function ciLines(file: string): string[] {
  const text = readFileSync(path.join(REPO_ROOT, file), 'utf8');
  const block = [...text.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!).find((b) => /--against git:/.test(b));
  if (!block) throw new Error(`${file} has no sh block running --against git:`);
  return block.split('\n').map((line) => line.replace(/\s#.*$/, '').trim()).filter((line) => line !== '' && !line.startsWith('#'));
}

/** Runs `lines` in `cwd` as a CI job would, stopping at the first that fails; the exit code. */
async function runLines(lines: string[], cwd: string): Promise<{ code: number; output: string }> {
  const script = ['set -e', ...lines.map((line) => line.replace(/^npx vitrine /, `"${process.execPath}" "${VITRINE_BIN}" `))].join('\n');
  try {
    const done = await promisify(execFile)('bash', ['-c', script], { cwd, encoding: 'utf8' });
    return { code: 0, output: `${done.stdout}${done.stderr}` };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, output: `${failed.stdout}${failed.stderr}` };
  }
}

describe('the CI lines in a --depth=1 --single-branch clone', () => {
  let origin: string;
  let root: string;

  beforeAll(async () => {
    root = tempDir('vitrine-ci-lines-');
    expect((await runVitrine(['init', 'lab'], root)).code).toBe(0);
    origin = path.join(root, 'lab');
    const plugin = path.join(origin, 'plugins/lab/index.ts');
    const original = readFileSync(plugin, 'utf8');
    git(origin, 'init', '-q');
    git(origin, 'add', '-A');
    git(origin, 'commit', '-qm', 'ripple');
    git(origin, 'checkout', '-qb', 'rename');
    writeFileSync(plugin, original.replaceAll('wavelength', 'crest'));
    git(origin, 'commit', '-qam', 'rename wavelength');
    git(origin, 'checkout', '-q', 'main');
    git(origin, 'checkout', '-qb', 'widen');
    writeFileSync(plugin, original.replace('@range segments 2 256', '@range segments 2 512'));
    git(origin, 'commit', '-qam', 'more segments');
  });

  /** A clone as CI makes it, of `branch` only, one commit deep. */
  function ciClone(branch: string): string {
    const clone = path.join(root, `clone-${branch}-${Math.random().toString(36).slice(2)}`);
    git(root, 'clone', '-q', '--depth=1', '--single-branch', '--branch', branch, `file://${origin}`, clone);
    // As in CI: main is not there until fetched.
    expect(() => git(clone, 'rev-parse', '--verify', '-q', 'origin/main')).toThrow();
    return clone;
  }

  /** The lines' runs on each branch, once per distinct set of lines (the two files may print the same ones). */
  type Run = Awaited<ReturnType<typeof runLines>>;
  const runs = new Map<string, Promise<{ renamed: Run; widened: Run }>>();
  const runsOf = (lines: string[]) => {
    const key = lines.join('\n');
    const both = async () => ({ renamed: await runLines(lines, ciClone('rename')), widened: await runLines(lines, ciClone('widen')) });
    if (!runs.has(key)) runs.set(key, both());
    return runs.get(key)!;
  };

  for (const file of ['docs/plugins.md', 'build/README.md']) {
    it(`${file}'s lines exit 1 on a renamed parameter and 0 on a compatible change`, async () => {
      const lines = ciLines(file);
      expect(lines.some((line) => line.startsWith('git fetch'))).toBe(true);
      const { renamed, widened } = await runsOf(lines);
      expect(renamed.output).toContain("breaking: parameter 'wavelength' of 'ripple' renamed to 'crest'");
      expect(renamed.code, renamed.output).toBe(1);
      expect(widened.output).toContain("compatible: maximum of 'segments' of 'ripple' raised from 256 to 512");
      expect(widened.code, widened.output).toBe(0);
    }, 120_000);
  }
});
