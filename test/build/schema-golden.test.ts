/**
 * Golden-file tests of the schema generator: one case per mapping rule in
 * test/fixtures/schema (see its README). UPDATE_FIXTURES=1 rewrites expected.json.
 */
import { describe, expect, it } from 'vitest';
import { createAjv, generateSchemaCases, listSchemaCases } from './helpers/schema-golden.ts';

const cases = generateSchemaCases();

describe('schema golden cases', () => {
  it('covers every case folder', () => {
    expect(cases.map((c) => c.name)).toEqual(listSchemaCases());
    expect(cases.length).toBeGreaterThanOrEqual(13);
  });

  for (const schemaCase of cases) {
    describe(schemaCase.name, () => {
      it('generates without build errors', () => {
        expect(schemaCase.diagnostics).toEqual([]);
      });

      it('matches expected.json', () => {
        expect(schemaCase.actual).toEqual(schemaCase.expected);
        // Key order is part of the contract (stable manifests), so compare the text too.
        expect(JSON.stringify(schemaCase.actual, null, 2)).toBe(JSON.stringify(schemaCase.expected, null, 2));
      });

      it('has samples for every function', () => {
        expect(Object.keys(schemaCase.samples).sort()).toEqual(schemaCase.expected.map((fn) => fn.name).sort());
      });

      for (const fn of schemaCase.expected) {
        it(`${fn.name}: schema is valid draft 2020-12 and accepts/rejects its samples`, () => {
          const ajv = createAjv();
          expect(ajv.validateSchema(fn.schema), JSON.stringify(ajv.errors)).toBe(true);
          const validate = ajv.compile(fn.schema);
          const samples = schemaCase.samples[fn.name] ?? {};
          for (const sample of samples.validSamples ?? []) {
            expect(validate(sample), `${JSON.stringify(sample)} should be valid: ${JSON.stringify(validate.errors)}`).toBe(true);
          }
          for (const sample of samples.invalidSamples ?? []) {
            expect(validate(sample), `${JSON.stringify(sample)} should be invalid`).toBe(false);
          }
        });
      }
    });
  }
});
