/**
 * @module build-diagnostic
 * A build error pointing at source: code, file, line, column, and the function and parameter
 * it concerns. Errors are collected (never thrown) so one run reports all of them.
 */
import type { Node } from 'ts-morph';
import { DIAGNOSTIC_CODES, type DiagnosticCode } from './diagnostic-codes.ts';

/** Where in the plugin sources a diagnostic points. */
export interface SourceLocation {
  /** Absolute path of the source file. */
  file: string;
  /** 1-based. */
  line: number;
  /** 1-based. */
  column: number;
}

export interface BuildDiagnostic {
  code: DiagnosticCode;
  /** The specific explanation (the code's title is prepended when formatted). */
  message: string;
  location: SourceLocation | null;
  plugin: string;
  functionName?: string;
  parameterName?: string;
  /** A warning: the plugin still builds (an error under `vitrine build --check`). Absent: an error. */
  severity?: 'warning';
}

/** What a diagnostic is about, beyond its code and message. */
export interface DiagnosticSubject {
  plugin: string;
  functionName?: string;
  parameterName?: string;
}

/** The location of a ts-morph node (its first non-trivia character). */
export function locationOf(node: Node): SourceLocation {
  const sourceFile = node.getSourceFile();
  const { line, column } = sourceFile.getLineAndColumnAtPos(node.getStart());
  return { file: sourceFile.getFilePath(), line, column };
}

/** Where `at` points: a ts-morph node's start, or a location as given (a Python plugin's). */
export function locate(at: Node | SourceLocation): SourceLocation {
  return 'file' in at && typeof at.file === 'string' ? at : locationOf(at as Node);
}

/** Creates a diagnostic at `at` (a node, a location, or null when no source applies). */
export function createDiagnostic(
  code: DiagnosticCode,
  at: Node | SourceLocation | null,
  message: string,
  subject: DiagnosticSubject,
): BuildDiagnostic {
  return { code, message, location: at === null ? null : locate(at), ...subject };
}

/** The catalogued title of a code, e.g. `unsupported parameter type`. */
export function titleOf(code: DiagnosticCode): string {
  return code.startsWith('TS') ? 'type error' : DIAGNOSTIC_CODES[code as keyof typeof DIAGNOSTIC_CODES];
}
