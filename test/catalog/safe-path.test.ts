import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isSafeRelativePath, resolveInside } from '../../core/catalog/safe-path.ts';

describe('isSafeRelativePath', () => {
  it.each([
    'a.glb',
    'sub/a.glb',
    './a.glb',
    'sub/./a.glb',
    'a..b.glb',
    '..a',
    'a..',
    '...',
    'name with spaces.obj',
    'ünïcødé.ply',
  ])('accepts %j', (p) => {
    expect(isSafeRelativePath(p)).toBe(true);
  });

  it.each([
    '',
    '.',
    './',
    '/etc/passwd',
    '//server/share/x',
    '..',
    '../x',
    'a/../b',
    'a/..',
    'a/b/../../..',
    '..\\x',
    'a\\b',
    '\\\\server\\share',
    'C:\\Windows\\win.ini',
    'C:/Windows/win.ini',
    'c:relative',
    'a\u0000.png',
    'a\n.png',
    'x'.repeat(5000),
  ])('rejects %j', (p) => {
    expect(isSafeRelativePath(p)).toBe(false);
  });
});

describe('resolveInside', () => {
  let base: string;
  let root: string;
  let outside: string;

  beforeAll(async () => {
    base = await realpath(await mkdtemp(path.join(tmpdir(), 'vitrine-safe-path-')));
    root = path.join(base, 'root');
    outside = path.join(base, 'outside');
    await mkdir(path.join(root, 'sub'), { recursive: true });
    await mkdir(outside);
    await writeFile(path.join(root, 'inside.txt'), 'in');
    await writeFile(path.join(root, 'sub', 'deep.txt'), 'deep');
    await writeFile(path.join(outside, 'secret.txt'), 'secret');
    await writeFile(path.join(base, 'root-sibling.txt'), 'sibling');
    await symlink(path.join(outside, 'secret.txt'), path.join(root, 'link-out.txt'));
    await symlink(outside, path.join(root, 'dir-out'));
    await symlink(path.join(root, 'inside.txt'), path.join(root, 'link-in.txt'));
    await symlink('../inside.txt', path.join(root, 'sub', 'relative-link-in.txt'));
    await symlink('../../outside/secret.txt', path.join(root, 'sub', 'relative-link-out.txt'));
    await symlink('/', path.join(root, 'to-slash'));
    await symlink(path.join(root, 'loop-b'), path.join(root, 'loop-a'));
    await symlink(path.join(root, 'loop-a'), path.join(root, 'loop-b'));
  });

  afterAll(async () => {
    await rm(base, { recursive: true, force: true });
  });

  it('resolves plain files and nested files', async () => {
    expect(await resolveInside(root, 'inside.txt')).toBe(path.join(root, 'inside.txt'));
    expect(await resolveInside(root, 'sub/deep.txt')).toBe(path.join(root, 'sub', 'deep.txt'));
    expect(await resolveInside(root, './sub//deep.txt')).toBe(path.join(root, 'sub', 'deep.txt'));
  });

  it('follows symlinks that stay inside and returns the real path', async () => {
    expect(await resolveInside(root, 'link-in.txt')).toBe(path.join(root, 'inside.txt'));
    expect(await resolveInside(root, 'sub/relative-link-in.txt')).toBe(path.join(root, 'inside.txt'));
  });

  it('rejects symlinks whose target is outside the root', async () => {
    expect(await resolveInside(root, 'link-out.txt')).toBeNull();
    expect(await resolveInside(root, 'sub/relative-link-out.txt')).toBeNull();
    expect(await resolveInside(root, 'dir-out/secret.txt')).toBeNull();
    expect(await resolveInside(root, 'dir-out')).toBeNull();
    expect(await resolveInside(root, 'to-slash/etc/passwd')).toBeNull();
  });

  it('rejects a missing file behind a directory symlink that leaves the root', async () => {
    expect(await resolveInside(root, 'dir-out/not-yet-there.txt')).toBeNull();
  });

  it('rejects every lexical escape form', async () => {
    for (const p of [
      '../root-sibling.txt',
      '../outside/secret.txt',
      'sub/../../outside/secret.txt',
      path.join(outside, 'secret.txt'),
      '/etc/passwd',
      '..\\outside\\secret.txt',
      'inside.txt\u0000.png',
      'C:\\outside\\secret.txt',
      '\\\\host\\share\\secret.txt',
      '',
      '.',
    ]) {
      expect(await resolveInside(root, p), p).toBeNull();
    }
  });

  it('rejects the root itself and symlink loops', async () => {
    expect(await resolveInside(root, 'sub/..')).toBeNull();
    expect(await resolveInside(root, 'loop-a')).toBeNull();
  });

  it('accepts a missing file inside the root, returning its would-be path', async () => {
    expect(await resolveInside(root, 'sub/missing.bin')).toBe(path.join(root, 'sub', 'missing.bin'));
    expect(await resolveInside(root, 'no-dir/missing.bin')).toBe(path.join(root, 'no-dir', 'missing.bin'));
  });

  it('works when the root itself is reached through a symlink', async () => {
    const linkedRoot = path.join(base, 'linked-root');
    await symlink(root, linkedRoot);
    expect(await resolveInside(linkedRoot, 'inside.txt')).toBe(path.join(root, 'inside.txt'));
    expect(await resolveInside(linkedRoot, 'link-out.txt')).toBeNull();
  });

  it('answers null for a root that does not exist', async () => {
    expect(await resolveInside(path.join(base, 'nope'), 'inside.txt')).toBeNull();
  });
});
