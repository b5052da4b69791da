/**
 * Commit subjects are at most 72 characters (the why goes in the body), for every commit made
 * on top of the one named here: the commits that are its descendants and ancestors of HEAD
 * (`git log --ancestry-path`), so work branched before the rule is held once it builds on it.
 * A shallow clone that does not reach the named commit holds the commits it has that were
 * made after it (by committer time). A history that has neither fails: the rule needs one.
 */
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { REPO } from '../helpers/cli-path.ts';

/** The last commit before the rule; every commit after it is held to it. */
const RULE_AFTER = '68c5c50f9e0db08d8849f28a77b8b61299207e5d';
/** When RULE_AFTER was committed (for a shallow clone that does not reach it). */
const RULE_AFTER_TIME = '2026-11-24T21:41:20Z';
const MAX_SUBJECT = 72;
/**
 * Commits already on main whose subjects are longer: main's history is never rewritten, so
 * they are named here once; the list only ever gets the ones that slipped through.
 */
const LANDED_LONG: readonly string[] = [
  'c8607493e92f56e90e5c2d2071aa43f4d52d95a7',
  'a309248f3f593c8ed94755f0750c22f7d9d669f8',
  '89719138a12cd147e8b7b203a4388c04c24ba3a5',
  '765f099ebaae46a032c79eb548ee0af2d4e74407',
  '0f9e9c968367d2e64d066d62cbe263fe32483928',
  'e30ed3bb7db4208162791517c82657bac60b96f2',
  '5c9d1d8c3d4383c4859017282544f2141662376b',
];

function git(...args: string[]): string {
  return execFileSync('git', args, { cwd: REPO, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

function hasCommit(hash: string): boolean {
  try {
    git('cat-file', '-e', `${hash}^{commit}`);
    return true;
  } catch {
    return false;
  }
}

/** `hash subject` of each commit the rule holds. */
function heldCommits(): { hash: string; subject: string }[] {
  const format = '--format=%H%x09%s';
  let log: string;
  if (hasCommit(RULE_AFTER)) log = git('log', '--ancestry-path', format, `${RULE_AFTER}..HEAD`);
  else if (git('rev-parse', '--is-shallow-repository').trim() === 'true') log = git('log', format, `--since=${RULE_AFTER_TIME}`, 'HEAD');
  else throw new Error(`commit ${RULE_AFTER} is not in this history (was the branch rebased?): name the commit the rule starts after`);
  return log
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => ({ hash: line.slice(0, 40), subject: line.slice(41) }));
}

describe('commit subjects', () => {
  it(`are at most ${MAX_SUBJECT} characters after ${RULE_AFTER.slice(0, 7)}`, () => {
    const long = heldCommits().filter((c) => [...c.subject].length > MAX_SUBJECT && !LANDED_LONG.includes(c.hash));
    expect(long.map((c) => `${c.hash.slice(0, 7)} (${[...c.subject].length}): ${c.subject}`)).toEqual([]);
  });
});
