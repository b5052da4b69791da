/**
 * @module annotation-parser
 * The contract of the Python annotation chain, the twin of build/schema/param-parser.ts: a
 * parser maps an annotation of its kind (and only such) to the same `ParsedParam` the
 * TypeScript chain produces. `Annotated[..., Range(lo, hi)]` and `Items(min=, max=)` carry
 * bounds and item counts beside the fragment, which the signature applies as the TypeScript
 * side applies its doc-comment tags, so both place them alike.
 */
import type { SourceLocation } from '../../diagnostics/build-diagnostic.ts';
import type { ParsedParam } from '../../schema/param-parser.ts';
import type { Bounds, ItemCounts } from '../../schema/read-bounds.ts';
import type { PyScope } from '../python-names.ts';
import type { PyExpr } from '../reader-output.ts';

/** An annotation as the chain sees it. */
export interface PyAnnotationInput {
  /** The annotation (or the part of it still to map). */
  expr: PyExpr;
  scope: PyScope;
  /** The parameter it belongs to (for messages). */
  parameter: string;
  /** Set once `None` was removed from a union. */
  optional: boolean;
}

/** `minimum`/`maximum` from `Range(lo, hi)`, and where the marker is written. */
export type PyBounds = Omit<Bounds, 'tag'> & { at: SourceLocation };

/** `minItems`/`maxItems` from `Items(min=, max=)`, and where the marker is written. */
export type PyItemCounts = Omit<ItemCounts, 'tag'> & { at: SourceLocation };

export interface PyParsed {
  parsed: ParsedParam;
  bounds?: PyBounds;
  counts?: PyItemCounts;
}

/** Maps the rest of an annotation; throws SchemaError when nothing supports it. */
export interface PyAnnotationChain {
  parse(input: PyAnnotationInput): PyParsed;
}

/** One kind of annotation: undefined when the annotation is not of its kind, else what it maps to (or a SchemaError). */
export type PyAnnotationParser = (input: PyAnnotationInput, chain: PyAnnotationChain) => PyParsed | undefined;
