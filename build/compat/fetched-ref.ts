/**
 * @module fetched-ref
 * A remote branch a shallow, single-branch clone fetched without keeping it. CI systems clone
 * only the branch under test (`--depth=1 --single-branch`); there `git fetch --depth=1 origin
 * main` brings main's commit but writes no `origin/main`, only a line of FETCH_HEAD (`<sha>
 * <tab><tab>branch 'main' of <url>`). `--against git:origin/main` then means that line's commit:
 * the branch of that name, fetched from the remote of that name.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** Runs git in `cwd`: its trimmed output; throws when it fails. */
export function git(args: string[], cwd: string): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
}

/** The remote's URL, or null when `remote` names none. */
function remoteUrl(top: string, remote: string): string | null {
  try {
    return git(['remote', 'get-url', remote], top);
  } catch {
    return null;
  }
}

/**
 * The commit FETCH_HEAD holds for `ref` when it reads `<remote>/<branch>` and the last fetch
 * brought that branch from that remote; null otherwise.
 */
export function fetchedCommit(top: string, ref: string): string | null {
  const slash = ref.indexOf('/');
  if (slash <= 0) return null;
  const remote = ref.slice(0, slash);
  const branch = ref.slice(slash + 1);
  const url = remoteUrl(top, remote);
  if (url === null) return null;
  const file = path.resolve(top, git(['rev-parse', '--git-path', 'FETCH_HEAD'], top));
  if (!existsSync(file)) return null;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const match = /^([0-9a-f]{40,64})\t[^\t]*\tbranch '(.+)' of (.+)$/.exec(line);
    if (match && match[2] === branch && match[3] === url) return match[1]!;
  }
  return null;
}
