/**
 * @module data-dir.test
 * Where a host keeps its work: `--data-dir` (or VITRINE_DATA_DIR), else the user's data folder
 * as XDG places it, made on first start and printed as `data: <dir>`; `none` keeps nothing and
 * warns; with `--redis` the folder is not used. And the suite's own promise: every host a test
 * starts has a folder of its own, so a run leaves the user's data folder as it found it.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chooseDataDir, defaultDataDir } from '../../core/cli/data-dir-choice.ts';
import { parseServeOptions } from '../../core/cli/serve-options.ts';
import { spawnHost } from '../helpers/spawn-host.ts';

const BASE = ['--port', '0', '--specimens', 'none', '--plugins', 'none', '--pool-size', '1', '--log-level', 'warn'];
const USER_DATA = path.join(homedir(), '.local', 'share', 'vitrine');

/** What the user's data folder holds, and when it last changed (null: it does not exist). */
function userDataState(): string | null {
  if (!existsSync(USER_DATA)) return null;
  return `${statSync(USER_DATA).mtimeMs} ${readdirSync(USER_DATA).sort().join(',')}`;
}

let before: string | null;
beforeAll(() => {
  before = userDataState();
});

describe('choosing the data folder', () => {
  it('defaults to $XDG_DATA_HOME/vitrine, else ~/.local/share/vitrine, and reads VITRINE_DATA_DIR', () => {
    expect(defaultDataDir({ XDG_DATA_HOME: '/x/data', HOME: '/home/a' })).toBe('/x/data/vitrine');
    expect(defaultDataDir({ HOME: '/home/a' })).toBe('/home/a/.local/share/vitrine');
    expect(defaultDataDir({ XDG_DATA_HOME: 'relative', HOME: '/home/a' })).toBe('/home/a/.local/share/vitrine');
    expect(parseServeOptions([], { HOME: '/home/a' }).host_options.dataDir).toBe('/home/a/.local/share/vitrine');
    expect(parseServeOptions([], { VITRINE_DATA_DIR: '/srv/v' }).data.line).toBe('data: /srv/v');
    expect(parseServeOptions(['--data-dir', '/srv/w'], { VITRINE_DATA_DIR: '/srv/v' }).host_options.dataDir).toBe('/srv/w');
  });

  it('keeps nothing with none (and warns), and uses no folder with --redis (saying so when one was given)', () => {
    expect(chooseDataDir('none', false)).toMatchObject({ dir: null, line: 'data: none' });
    expect(chooseDataDir('none', false).warning).toMatch(/memory only/);
    expect(chooseDataDir(undefined, true)).toEqual({ dir: null, line: null, warning: null });
    expect(chooseDataDir('/srv/v', true).warning).toMatch(/--data-dir \/srv\/v is not used with --redis/);
    expect(() => chooseDataDir(' ', false)).toThrow(/--data-dir must be a folder/);
  });

  it('runs a worker from memory unless a folder is named: its relay keeps the rooms', () => {
    const worker = parseServeOptions(['--join', 'http://127.0.0.1:9'], { HOME: '/home/someone' });
    expect(worker.host_options.dataDir).toBeNull();
    expect(worker.data.line).toMatch(/^data: none/);
    expect(parseServeOptions(['--join', 'http://127.0.0.1:9', '--data-dir', '/srv/w'], {}).host_options.dataDir).toBe('/srv/w');
  });
});

// Each test starts hosts of its own on folders of its own, so they run side by side.
describe.concurrent('a host and its data folder', () => {
  it('makes the default folder under HOME on first start and prints it', async () => {
    const home = mkdtempSync(path.join(tmpdir(), 'vitrine-home-'));
    const env = { HOME: home, XDG_DATA_HOME: undefined, VITRINE_DATA_DIR: undefined };
    const host = await spawnHost(BASE, { env, hostDataDir: true });
    const dir = path.join(home, '.local', 'share', 'vitrine');
    expect(host.stdout()).toContain(`data: ${dir}\n`);
    expect(existsSync(dir)).toBe(true);
    await host.stop();
    rmSync(home, { recursive: true, force: true });
  });

  it('follows XDG_DATA_HOME', async () => {
    const xdg = mkdtempSync(path.join(tmpdir(), 'vitrine-xdg-'));
    const host = await spawnHost(BASE, { env: { XDG_DATA_HOME: xdg, VITRINE_DATA_DIR: undefined }, hostDataDir: true });
    expect(host.stdout()).toContain(`data: ${path.join(xdg, 'vitrine')}\n`);
    await host.stop();
    rmSync(xdg, { recursive: true, force: true });
  });

  it('a test host gets a temporary folder of its own, never the user data folder', async () => {
    const [a, b] = await Promise.all([spawnHost(BASE), spawnHost(BASE)]);
    for (const host of [a, b]) {
      expect(host.dataDir.startsWith(tmpdir())).toBe(true);
      expect(host.child.spawnargs).toContain('--data-dir');
      expect(host.stdout()).toContain(`data: ${host.dataDir}\n`);
    }
    expect(a.dataDir).not.toBe(b.dataDir);
    await Promise.all([a.stop(), b.stop()]);
  });

  it('warns with none, and says nothing is kept', async () => {
    const host = await spawnHost([...BASE, '--data-dir', 'none', '--log-level', 'info']);
    expect(host.stdout()).toContain('data: none\n');
    await host.waitForLog('kept in memory only');
    await host.stop();
  });
});

afterAll(() => {
  // The user's folder is as this file found it (the hosts above all had folders of their own).
  expect(userDataState()).toBe(before);
});
