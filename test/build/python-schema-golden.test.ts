/**
 * Golden-file tests of the Python reader: each case in test/fixtures/schema with a plugin.py
 * has a TypeScript twin (plugin.ts, same functions, same parameters). The Python manifest
 * entries must match expected-python.json and equal their twins' entries in everything but
 * the source location (schema key order included), and every schema is valid draft 2020-12
 * that accepts and rejects the case's samples (Ajv). UPDATE_FIXTURES=1 rewrites
 * expected-python.json; the twins' expected.json is schema-golden.test.ts's.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { ManifestFunction } from '../../core/registry/manifest-types.ts';
import { generatePythonCases, listPythonCases, type PythonCase } from './helpers/python-golden.ts';
import { createAjv } from './helpers/schema-golden.ts';

let cases: PythonCase[];

beforeAll(async () => {
  cases = await generatePythonCases();
});

const withoutSource = ({ source, ...rest }: ManifestFunction) => (void source, rest);
const caseOf = (name: string): PythonCase => cases.find((c) => c.name === name)!;

describe('Python schema golden cases', () => {
  it('covers every case folder with a plugin.py, each with a TypeScript twin', () => {
    expect(cases.map((c) => c.name)).toEqual(listPythonCases());
    expect(cases.length).toBeGreaterThanOrEqual(12);
    for (const c of cases) expect(c.twins.length, `${c.name}/expected.json`).toBeGreaterThan(0);
  });

  for (const name of listPythonCases()) {
    describe(name, () => {
      it('reads without build errors', () => {
        expect(caseOf(name).diagnostics).toEqual([]);
      });

      it('matches expected-python.json', () => {
        const c = caseOf(name);
        expect(c.actual).toEqual(c.expected);
        expect(JSON.stringify(c.actual, null, 2)).toBe(JSON.stringify(c.expected, null, 2));
      });

      it('equals its TypeScript twin in everything but the source location', () => {
        const c = caseOf(name);
        expect(c.actual.map((fn) => fn.name)).toEqual(c.twins.map((fn) => fn.name));
        for (const fn of c.actual) {
          const twin = c.twins.find((t) => t.name === fn.name)!;
          expect(withoutSource(fn)).toEqual(withoutSource(twin));
          // Key order is part of the manifest, so the property schemas must read the same too.
          expect(JSON.stringify(fn.schema)).toBe(JSON.stringify(twin.schema));
          expect(fn.source.file).toBe('plugin.py');
        }
      });

      it('gives schemas that are valid draft 2020-12 and accept/reject the samples', () => {
        const c = caseOf(name);
        for (const fn of c.actual) {
          const ajv = createAjv();
          expect(ajv.validateSchema(fn.schema), JSON.stringify(ajv.errors)).toBe(true);
          const validate = ajv.compile(fn.schema);
          const samples = c.samples[fn.name];
          expect(samples, `samples.json has ${fn.name}`).toBeDefined();
          for (const sample of samples?.validSamples ?? [])
            expect(validate(sample), `${fn.name}: ${JSON.stringify(sample)} should be valid: ${JSON.stringify(validate.errors)}`).toBe(true);
          for (const sample of samples?.invalidSamples ?? []) expect(validate(sample), `${fn.name}: ${JSON.stringify(sample)} should be invalid`).toBe(false);
        }
      });
    });
  }
});
