/**
 * @module param-parser
 * The parser chain's contract. A parameter is seen as the list of its type's union members
 * (a plain type is a list of one), so composite parsers (optional, string enum) can narrow
 * the list and hand the rest back to the chain. First parser whose `supports` is true wins.
 */
import type { ParameterDeclaration, Type, TypeNode } from 'ts-morph';

/** A JSON value: what defaults, enum members and tuple items are made of. */
export type JsonValue = number | string | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/**
 * One JSON Schema fragment for a value parameter (key order matters: it is the manifest's).
 * Scalars are `{type}` or `{enum}`; arrays, tuples, colours and inputs carry more keywords.
 */
export interface SchemaFragment {
  type?: 'number' | 'integer' | 'string' | 'boolean' | 'array' | 'object';
  enum?: (string | number)[];
  [keyword: string]: unknown;
}

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
