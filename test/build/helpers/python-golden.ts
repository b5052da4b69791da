/**
 * @module python-golden
 * The Python half of the schema golden cases: every case folder of test/fixtures/schema with a
 * `plugin.py` beside its `plugin.ts` twin. The Python functions are read together (one reader
 * run, as a build of many plugins would), compared with the case's `expected-python.json` (or
 * rewritten with UPDATE_FIXTURES=1), and paired with the TypeScript functions of the same name.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { ManifestFunction } from '../../../core/registry/manifest-types.ts';
import type { BuildDiagnostic } from '../../../build/diagnostics/build-diagnostic.ts';
import { formatDiagnostic } from '../../../build/diagnostics/format-diagnostic.ts';
import { analyzePythonPlugins } from '../../../build/python/analyze-python-plugins.ts';
import { TEST_PYTHON } from '../../helpers/test-python.ts';
import { SCHEMA_CASES_DIR, UPDATE_FIXTURES } from './schema-golden.ts';

export interface PythonCase {
  name: string;
  dir: string;
  actual: ManifestFunction[];
  diagnostics: string[];
  /** expected-python.json (after rewriting it when UPDATE_FIXTURES=1). */
  expected: ManifestFunction[];
  /** The TypeScript twin's expected.json. */
  twins: ManifestFunction[];
  samples: Record<string, { validSamples?: unknown[]; invalidSamples?: unknown[] }>;
}

/** Case folders holding a plugin.py. */
export function listPythonCases(): string[] {
  return readdirSync(SCHEMA_CASES_DIR, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(path.join(SCHEMA_CASES_DIR, entry.name, 'plugin.py')))
    .map((entry) => entry.name)
    .sort();
}

const readJson = <T>(file: string, fallback: T): T => (existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as T) : fallback);

export async function generatePythonCases(): Promise<PythonCase[]> {
  const diagnostics: BuildDiagnostic[] = [];
  const plugins = listPythonCases().map((name) => ({
    name,
    dir: path.join(SCHEMA_CASES_DIR, name),
    entry: path.join(SCHEMA_CASES_DIR, name, 'plugin.py'),
    runtime: 'python' as const,
  }));
  const analyses = await analyzePythonPlugins(plugins, TEST_PYTHON, diagnostics);
  return analyses.map(({ plugin, functions }) => {
    const expectedFile = path.join(plugin.dir, 'expected-python.json');
    const actual = JSON.parse(JSON.stringify(functions)) as ManifestFunction[];
    if (UPDATE_FIXTURES) writeFileSync(expectedFile, `${JSON.stringify(actual, null, 2)}\n`);
    return {
      name: plugin.name,
      dir: plugin.dir,
      actual,
      diagnostics: diagnostics.filter((d) => d.plugin === plugin.name).map((d) => formatDiagnostic(d, SCHEMA_CASES_DIR)),
      expected: readJson(expectedFile, []),
      twins: readJson(path.join(plugin.dir, 'expected.json'), []),
      samples: readJson(path.join(plugin.dir, 'samples.json'), {}),
    };
  });
}
