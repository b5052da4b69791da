/**
 * The classifier on real builds: test/fixtures/compat/before/ and after/ hold two versions of a
 * TypeScript and a Python plugin, one function per kind of change; both are built as
 * `vitrine build` builds them, compared, and each change placed at its source line must give
 * exactly the lines of expected.txt (UPDATE_FIXTURES=1 rewrites it).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { buildPlugins } from '../../build/build-plugins.ts';
import { compareBuilds } from '../../build/compat/compat-report.ts';
import { manifestsOf } from '../../build/compat/earlier-build.ts';
import { placeChanges } from '../../build/compat/place-changes.ts';
import { TEST_PYTHON } from '../helpers/test-python.ts';
import { tempDir } from './helpers/run-cli.ts';
import { UPDATE_FIXTURES } from './helpers/schema-golden.ts';

const CASES = fileURLToPath(new URL('../fixtures/compat/', import.meta.url));

async function manifestsAt(side: 'before' | 'after') {
  const src = path.join(CASES, side);
  const built = await buildPlugins(src, tempDir('vitrine-compat-golden-'), { python: TEST_PYTHON });
  expect(built.diagnostics).toEqual([]);
  return manifestsOf(built.plugins, src);
}

describe('two real builds of a TypeScript and a Python plugin', () => {
  it('give the expected line for every change', async () => {
    const report = compareBuilds(await manifestsAt('before'), await manifestsAt('after'));
    const after = path.join(CASES, 'after');
    const lines = placeChanges(report.changes, after, after).map((c) => `${c.file}:${c.line}: ${c.class}: ${c.what}`);
    const expectedFile = path.join(CASES, 'expected.txt');
    if (UPDATE_FIXTURES) writeFileSync(expectedFile, `${lines.join('\n')}\n`);
    expect(existsSync(expectedFile)).toBe(true);
    expect(lines).toEqual(readFileSync(expectedFile, 'utf8').trimEnd().split('\n'));
    expect(report.counts).toEqual({ breaking: 12, 'changes-results': 3, compatible: 5 });
  });
});
