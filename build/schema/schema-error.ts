/**
 * @module schema-error
 * The error a parameter parser throws when it cannot map a parameter. It carries the node it
 * is about (or, for a Python plugin, the location) so the build reports `file:line:col`;
 * generate-schema turns it into a diagnostic.
 */
import type { Node } from 'ts-morph';
import type { SourceLocation } from '../diagnostics/build-diagnostic.ts';
import type { DiagnosticCode } from '../diagnostics/diagnostic-codes.ts';

export class SchemaError extends Error {
  override name = 'SchemaError';
  readonly code: DiagnosticCode;
  readonly node: Node | SourceLocation;
  /** The parameter concerned, when the error is not raised while parsing one. */
  readonly parameterName: string | undefined;

  constructor(code: DiagnosticCode, node: Node | SourceLocation, message: string, parameterName?: string) {
    super(message);
    this.code = code;
    this.node = node;
    this.parameterName = parameterName;
  }
}
