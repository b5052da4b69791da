/**
 * Invalid plugins: every build error is reported (not just the first), with its code, and a
 * message naming file:line:col, function and parameter. Expectations live next to each case
 * in test/fixtures/build/invalid-<case>/expected-errors.json.
 */
import { describe, expect, it } from 'vitest';
import { titleOf } from '../../build/diagnostics/build-diagnostic.ts';
import { formatDiagnostic } from '../../build/diagnostics/format-diagnostic.ts';
import { listInvalidCases, runInvalidCase } from './helpers/build-cases.ts';

describe('invalid plugins', { timeout: 120_000 }, () => {
  for (const name of listInvalidCases()) {
    it(`${name}: reports exactly the expected errors`, async () => {
      const { diagnostics, actual, expected, caseDir } = await runInvalidCase(name);
      expect(expected.length).toBeGreaterThan(0);
      expect(actual).toEqual(expected);
      diagnostics.forEach((diagnostic, index) => {
        const text = formatDiagnostic(diagnostic, caseDir);
        const where = expected[index]!;
        expect(text).toContain(`${diagnostic.code} ${titleOf(diagnostic.code)}`);
        expect(where.file).toMatch(/^plugins\/[^/]+\/index\.ts$/);
        expect(text.startsWith(`${where.file}:${where.line}:${where.column} `)).toBe(true);
        if (diagnostic.functionName !== undefined) expect(text).toContain(`function '${diagnostic.functionName}'`);
        if (diagnostic.parameterName !== undefined) expect(text).toContain(`parameter '${diagnostic.parameterName}'`);
      });
    });
  }
});
