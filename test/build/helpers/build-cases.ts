/**
 * @module build-cases
 * Cases of invalid plugins in test/fixtures/build/invalid-<case>/plugins/ (TypeScript) and
 * python-invalid-<case>/plugins/ (Python): each case's expected-errors.json lists every build
 * error the case must produce (code, file, line, column, function, parameter; the Python cases
 * their messages too). UPDATE_FIXTURES=1 rewrites the expectations.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildPlugins } from '../../../build/build-plugins.ts';
import type { BuildDiagnostic } from '../../../build/diagnostics/build-diagnostic.ts';
import { TEST_PYTHON } from '../../helpers/test-python.ts';
import { UPDATE_FIXTURES } from './schema-golden.ts';

export const BUILD_CASES_DIR = fileURLToPath(new URL('../../fixtures/build/', import.meta.url));

export interface ExpectedError {
  code: string;
  /** Relative to the case folder, posix separators. */
  file: string | null;
  line: number | null;
  column: number | null;
  function: string | null;
  parameter: string | null;
  /** The diagnostic's message, with paths inside the case relative to it (recorded for the cases that ask for it). */
  message?: string;
}

/** `text` with the case folder's absolute path left out, so expectations hold on any machine. */
export function relativeToCase(text: string, caseDir: string): string {
  return text.split(`${caseDir}${path.sep}`).join('');
}

/** Case folders whose names start with `prefix`. */
export function listInvalidCases(prefix = 'invalid-'): string[] {
  return readdirSync(BUILD_CASES_DIR, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && entry.name.startsWith(prefix))
    .map((entry) => entry.name)
    .sort();
}

export function toExpectedError(diagnostic: BuildDiagnostic, caseDir: string, withMessage = false): ExpectedError {
  const location = diagnostic.location;
  return {
    code: diagnostic.code,
    file: location ? path.relative(caseDir, location.file).split(path.sep).join('/') : null,
    line: location?.line ?? null,
    column: location?.column ?? null,
    function: diagnostic.functionName ?? null,
    parameter: diagnostic.parameterName ?? null,
    ...(withMessage ? { message: relativeToCase(diagnostic.message, caseDir) } : {}),
  };
}

/** Builds the case in process; returns its diagnostics and the expectation file's content. */
export async function runInvalidCase(
  name: string,
  withMessages = false,
): Promise<{ diagnostics: BuildDiagnostic[]; actual: ExpectedError[]; expected: ExpectedError[]; caseDir: string }> {
  const caseDir = path.join(BUILD_CASES_DIR, name);
  const out = mkdtempSync(path.join(tmpdir(), 'vitrine-build-case-'));
  const { diagnostics } = await buildPlugins(path.join(caseDir, 'plugins'), out, { python: TEST_PYTHON });
  const actual = diagnostics.map((diagnostic) => toExpectedError(diagnostic, caseDir, withMessages));
  const expectedFile = path.join(caseDir, 'expected-errors.json');
  if (UPDATE_FIXTURES) writeFileSync(expectedFile, `${JSON.stringify(actual, null, 2)}\n`);
  const expected = existsSync(expectedFile) ? (JSON.parse(readFileSync(expectedFile, 'utf8')) as ExpectedError[]) : [];
  return { diagnostics, actual, expected, caseDir };
}
