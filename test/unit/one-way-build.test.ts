/**
 * The build is a library the CLI calls, never the other way round: the plugin compiler in
 * `build/` reaches into `core/` only for the vocabulary both sides share (the SDK types, the
 * manifest shape, the parameter vocabulary, the package layout), and nothing it loads, directly
 * or through those, is host code. Repository tooling (`build/tools/`: compile, lint,
 * thumbnails) may use the host, but still never the CLI, `app.ts` or `server.ts`.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { specifiersOf } from '../../build/tools/layering/core-imports.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const BUILD = path.join(ROOT, 'build');
const TOOLS = path.join(BUILD, 'tools');
const SKIPPED = ['dist', 'out'].map((name) => path.join(BUILD, name));

/** The core/ modules the compiler may load: shared vocabulary, each importing only the others. */
const SHARED = [
  'core/loading/package-layout.ts',
  'core/registry/manifest-types.ts',
  'core/params/param-vocabulary.ts',
  'core/wire/input-schema.ts',
  'core/wire/stable-json.ts',
];
const isShared = (rel: string) => SHARED.includes(rel) || rel.startsWith('core/sdk/');

function tsFiles(dir: string, found: string[] = []): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!SKIPPED.includes(full) && entry.name !== 'node_modules') tsFiles(full, found);
    } else if (/\.(ts|js|mjs)$/.test(entry.name) && !entry.name.endsWith('.d.ts')) found.push(full);
  }
  return found;
}

/** Relative modules a file imports: static, dynamic and type-only, resolved to repository paths. */
function importsOf(file: string): string[] {
  return specifiersOf(readFileSync(file, 'utf8')).map((spec) => path.relative(ROOT, path.resolve(path.dirname(file), spec)).split(path.sep).join('/'));
}

describe('the one-way build', () => {
  it('the compiler loads nothing of the host, directly or through what it imports', () => {
    const compiler = tsFiles(BUILD).filter((file) => !file.startsWith(TOOLS + path.sep));
    expect(compiler.length).toBeGreaterThan(30);
    const offending: string[] = [];
    const seen = new Set<string>();
    const queue = compiler.map((file) => path.relative(ROOT, file));
    while (queue.length > 0) {
      const rel = queue.pop()!;
      if (seen.has(rel)) continue;
      seen.add(rel);
      for (const target of importsOf(path.join(ROOT, rel))) {
        if (target.startsWith('build/tools/')) offending.push(`${rel} -> ${target} (repository tooling)`);
        else if (target.startsWith('core/') && !isShared(target)) offending.push(`${rel} -> ${target}`);
        else queue.push(target);
      }
    }
    expect(offending).toEqual([]);
    // The walk did reach the shared vocabulary, so the check above had something to check.
    expect([...seen].some((rel) => rel === 'core/registry/manifest-types.ts')).toBe(true);
  });

  it('nothing in build/, tooling included, imports the CLI, app.ts or server.ts', () => {
    const offending = tsFiles(BUILD).flatMap((file) =>
      importsOf(file)
        .filter((target) => target === 'core/app.ts' || target === 'core/server.ts' || target.startsWith('core/cli/'))
        .map((target) => `${path.relative(ROOT, file)} -> ${target}`),
    );
    expect(offending).toEqual([]);
  });
});
