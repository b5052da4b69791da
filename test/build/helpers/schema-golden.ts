/**
 * @module schema-golden
 * The golden-file helper for the schema generator: generates the manifest function entries of
 * every case in test/fixtures/schema, compares them with the case's expected.json (or rewrites
 * it with UPDATE_FIXTURES=1), validates each schema against the draft 2020-12 meta-schema,
 * compiles it with Ajv and runs the case's valid and invalid samples.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ManifestFunction } from '../../../core/registry/manifest-types.ts';
import { analyzePlugins } from '../../../build/build-plugins.ts';
import { addParamVocabulary } from '../../../core/params/param-vocabulary.ts';
import type { BuildDiagnostic } from '../../../build/diagnostics/build-diagnostic.ts';
import { formatDiagnostic } from '../../../build/diagnostics/format-diagnostic.ts';

export const SCHEMA_CASES_DIR = fileURLToPath(new URL('../../fixtures/schema/', import.meta.url));

export const UPDATE_FIXTURES = process.env['UPDATE_FIXTURES'] === '1';

export interface SchemaCase {
  name: string;
  dir: string;
  /** What the generator produced. */
  actual: ManifestFunction[];
  diagnostics: string[];
  /** expected.json (after rewriting it when UPDATE_FIXTURES=1). */
  expected: ManifestFunction[];
  samples: Record<string, { validSamples?: unknown[]; invalidSamples?: unknown[] }>;
}

/** Case folder names (each holding plugin.ts). */
export function listSchemaCases(): string[] {
  return readdirSync(SCHEMA_CASES_DIR, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(path.join(SCHEMA_CASES_DIR, entry.name, 'plugin.ts')))
    .map((entry) => entry.name)
    .sort();
}

/** Generates every case in one ts-morph Project (as a build of many plugins would). */
export function generateSchemaCases(): SchemaCase[] {
  const names = listSchemaCases();
  const diagnostics: BuildDiagnostic[] = [];
  const analyses = analyzePlugins(
    names.map((name) => ({ name, dir: path.join(SCHEMA_CASES_DIR, name), entry: path.join(SCHEMA_CASES_DIR, name, 'plugin.ts'), runtime: 'node' as const })),
    diagnostics,
  );
  return analyses.map(({ plugin, functions }) => {
    const expectedFile = path.join(plugin.dir, 'expected.json');
    const actual = JSON.parse(JSON.stringify(functions)) as ManifestFunction[];
    if (UPDATE_FIXTURES) writeFileSync(expectedFile, `${JSON.stringify(actual, null, 2)}\n`);
    const samplesFile = path.join(plugin.dir, 'samples.json');
    return {
      name: plugin.name,
      dir: plugin.dir,
      actual,
      diagnostics: diagnostics.filter((d) => d.plugin === plugin.name).map((d) => formatDiagnostic(d, SCHEMA_CASES_DIR)),
      expected: existsSync(expectedFile) ? (JSON.parse(readFileSync(expectedFile, 'utf8')) as ManifestFunction[]) : [],
      samples: existsSync(samplesFile) ? JSON.parse(readFileSync(samplesFile, 'utf8')) : {},
    };
  });
}

/**
 * An Ajv for draft 2020-12 in strict mode (unknown keywords and formats are errors), taught
 * only what parameter schemas add: the `color` format and the `x-vitrine-input` keyword.
 */
export function createAjv(): Ajv2020 {
  return addParamVocabulary(new Ajv2020({ strict: true, allErrors: true }));
}
