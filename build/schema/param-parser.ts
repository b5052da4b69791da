/**
 * @module param-parser
 * The parser chain's contract. A parameter is seen as the list of its type's union members
 * (a plain type is a list of one), so composite parsers (optional, string enum) can narrow
 * the list and hand the rest back to the chain. First parser whose `supports` is true wins.
 */
import type { ParameterDeclaration, Type, TypeNode } from 'ts-morph';

/** One JSON Schema fragment for a value parameter: `{type}` or `{enum}` (key order matters). */
export type SchemaFragment = { type: 'number' | 'integer' | 'string' | 'boolean' } | { enum: string[] };

/** What a parameter becomes. */
export type ParsedParam =
  | { kind: 'value'; schema: SchemaFragment; optional: boolean }
  | { kind: 'reporter'; optional: boolean }
  | { kind: 'signal'; optional: boolean };

/** The parameter as the chain sees it. */
export interface ParamInput {
  declaration: ParameterDeclaration;
  /** The union members of the parameter's type (after narrowing by earlier parsers). */
  members: Type[];
  /** The written annotation (narrowed alongside `members`), if any. */
  typeNode: TypeNode | undefined;
  /** Set once `undefined` was removed from the members, or the parameter has `?`. */
  optional: boolean;
}

/** Maps the rest of a parameter; throws SchemaError when nothing supports it. */
export interface ParamChain {
  parse(param: ParamInput): ParsedParam;
}

/** One kind of parameter type. */
export interface ParamParser {
  /** A name for messages and tests. */
  readonly name: string;
  supports(param: ParamInput): boolean;
  toSchema(param: ParamInput, chain: ParamChain): ParsedParam;
}
