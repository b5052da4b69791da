/**
 * @module fixture-build
 * Builds the federation fixture plugin with `vitrine build` into a temporary directory (one of
 * its own, or one shared by the test files of a process).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { builtFixture } from '../../helpers/built-fixture.ts';
import { CLI } from '../../helpers/cli-path.ts';
import { ROOT } from './host-process.ts';

export const FIXTURES = path.join(ROOT, 'test/fixtures/federation');

/** Builds the fixture plugins; returns the output directory and a cleanup function. */
export function buildFixturePlugins(): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(path.join(tmpdir(), 'vitrine-fed-'));
  execFileSync(process.execPath, [CLI, 'build', path.join(FIXTURES, 'plugins'), '--out', path.join(dir, 'plugins')], { cwd: ROOT, stdio: 'pipe' });
  return { dir: path.join(dir, 'plugins'), cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** The fixture plugins built once per test process and shared by the files that only read them. */
export async function sharedFixturePlugins(): Promise<{ dir: string }> {
  return { dir: await builtFixture('federation/plugins') };
}

/** Joins a relay: the common worker arguments. */
export function workerArgs(relayUrl: string, workerId: string, plugins: string, specimens: string, extra: string[] = []): string[] {
  return ['--join', relayUrl, '--worker-id', workerId, '--plugins', plugins, '--specimens', specimens, ...extra];
}

export const NO_PLUGINS = path.join(FIXTURES, 'no-plugins');
