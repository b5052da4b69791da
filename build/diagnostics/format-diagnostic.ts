/**
 * @module format-diagnostic
 * Renders a build diagnostic as one line in the compiler style editors link:
 * `plugins/shapes/index.ts:12:3 error VITRINE_SCHEMA_100 unsupported parameter type: ...` (a
 * warning says `warning` in place of `error`).
 */
import path from 'node:path';
import { titleOf, type BuildDiagnostic } from './build-diagnostic.ts';

/** Formats `diagnostic`, showing its file relative to `cwd` when it lies inside it. */
export function formatDiagnostic(diagnostic: BuildDiagnostic, cwd: string): string {
  const where = diagnostic.location
    ? `${displayPath(diagnostic.location.file, cwd)}:${diagnostic.location.line}:${diagnostic.location.column}`
    : `plugin '${diagnostic.plugin}'`;
  const subject: string[] = [];
  if (diagnostic.functionName !== undefined) subject.push(`function '${diagnostic.functionName}'`);
  if (diagnostic.parameterName !== undefined) subject.push(`parameter '${diagnostic.parameterName}'`);
  const about = subject.length > 0 ? ` [${subject.join(', ')}]` : '';
  return `${where} ${diagnostic.severity ?? 'error'} ${diagnostic.code} ${titleOf(diagnostic.code)}${about}: ${diagnostic.message}`;
}

/** `file` relative to `cwd` (posix separators) when inside it, else absolute. */
export function displayPath(file: string, cwd: string): string {
  const relative = path.relative(cwd, file);
  if (relative === '' || relative.startsWith('..') || path.isAbsolute(relative)) return file;
  return relative.split(path.sep).join('/');
}
