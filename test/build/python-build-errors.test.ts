/**
 * Invalid Python plugins: every build error is reported (not just the first), with its code,
 * its message, and file:line:col, function and parameter, in the format of the TypeScript
 * side's errors. Expectations live next to each case in
 * test/fixtures/build/python-invalid-<case>/expected-errors.json (UPDATE_FIXTURES=1 rewrites
 * them: read the diff before committing).
 */
import { describe, expect, it } from 'vitest';
import { titleOf } from '../../build/diagnostics/build-diagnostic.ts';
import { formatDiagnostic } from '../../build/diagnostics/format-diagnostic.ts';
import { listInvalidCases, relativeToCase, runInvalidCase } from './helpers/build-cases.ts';

describe('invalid Python plugins', { timeout: 120_000 }, () => {
  it('has its cases', () => {
    expect(listInvalidCases('python-invalid-').length).toBeGreaterThanOrEqual(6);
  });

  for (const name of listInvalidCases('python-invalid-')) {
    it(`${name}: reports exactly the expected errors and messages`, async () => {
      const { diagnostics, actual, expected, caseDir } = await runInvalidCase(name, true);
      expect(expected.length).toBeGreaterThan(0);
      expect(actual).toEqual(expected);
      diagnostics.forEach((diagnostic, index) => {
        const text = relativeToCase(formatDiagnostic(diagnostic, caseDir), caseDir);
        const where = expected[index]!;
        expect(where.file).toMatch(/^plugins\/[^/]+\/(plugin\.py|index\.ts)$/);
        expect(text).toBe(
          `${where.file}:${where.line}:${where.column} error ${diagnostic.code} ${titleOf(diagnostic.code)}${subject(where)}: ${where.message}`,
        );
      });
    });
  }
});

function subject(where: { function: string | null; parameter: string | null }): string {
  const parts = [where.function !== null ? `function '${where.function}'` : '', where.parameter !== null ? `parameter '${where.parameter}'` : ''].filter(
    Boolean,
  );
  return parts.length > 0 ? ` [${parts.join(', ')}]` : '';
}
