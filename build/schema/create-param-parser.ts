/**
 * @module create-param-parser
 * The parameter parsers, and the one place their order lives. Optional first (it strips
 * `undefined` and recurses), then the injected kinds, then inputs (recognised by annotation;
 * `VolumeInput` is a union to the checker), tuples and arrays (which parse their elements
 * through this same chain), then the scalar kinds. Boolean must come before the literal unions (ts-morph sees `boolean` as
 * the union `true | false`; ts-morph issue #1442), Integer before number and Color before
 * string (both are plain to the checker; only their annotation differs).
 */
import { Node, SyntaxKind, ts, type Type, type TypeNode } from 'ts-morph';
import { colorSchema } from '../../core/params/param-vocabulary.ts';
import type { InputKind } from '../../core/sdk/input-types.ts';
import { INPUT_KINDS, INPUT_TYPE_NAMES, inputSchema } from '../../core/wire/input-schema.ts';
import { elementSchema } from './element-schema.ts';
import type { ParamChain, ParamInput, ParamParser, ParsedParam, SchemaFragment } from './param-parser.ts';
import { SchemaError } from './schema-error.ts';
import { arrayFragment, enumFragment, scalarFragment, tupleFragment } from './schema-object.ts';
import { isNamedType, namesSdkAlias, single, unwrapParens } from './type-queries.ts';
import { unsupportedType } from './unsupported-type.ts';

// `T | undefined` (also what `x?: T` becomes under strictNullChecks): removes `undefined`,
// marks the parameter optional, and hands the rest back to the chain.
/** The annotation without its `undefined` members (undefined when several remain). */
function stripUndefinedNode(node: TypeNode | undefined): TypeNode | undefined {
  const typeNode = unwrapParens(node);
  if (!typeNode || !Node.isUnionTypeNode(typeNode)) return typeNode;
  const rest = typeNode.getTypeNodes().filter((member) => member.getKind() !== SyntaxKind.UndefinedKeyword);
  return rest.length === 1 ? rest[0] : typeNode;
}

const optionalParser: ParamParser = {
  name: 'optional',
  supports: (param) => param.members.length > 1 && param.members.some((member) => member.isUndefined()),
  toSchema(param, chain) {
    const parsed = chain.parse({
      ...param,
      members: param.members.filter((member) => !member.isUndefined()),
      typeNode: stripUndefinedNode(param.typeNode),
      optional: true,
    });
    return { ...parsed, optional: true };
  },
};

// `ProgressReporter` and `AbortSignal` (each optionally absent): injected by the host, the
// signal aborted when a job is cancelled; not part of the schema.
/** The parser of a parameter whose one type is `typeName`, which the host injects as `kind`. */
function injectedParser(name: string, typeName: string, kind: Exclude<ParsedParam['kind'], 'value'>): ParamParser {
  return {
    name,
    supports(param) {
      const type = single(param.members);
      return type !== undefined && isNamedType(type, typeName);
    },
    toSchema: (param) => ({ kind, optional: param.optional }),
  };
}

const progressReporterParser = injectedParser('progress-reporter', 'ProgressReporter', 'reporter');
const abortSignalParser = injectedParser('abort-signal', 'AbortSignal', 'signal');

// `MeshInput`, `VolumeInput`, `PointCloudInput`, `ImageInput` from 'vitrine' → the input
// object schema marked `x-vitrine-input`. Recognised by the annotation, because the checker
// spreads `VolumeInput` (a union over dtypes) into members that no longer carry its name.
function kindOf(param: ParamInput): InputKind | undefined {
  return INPUT_KINDS.find((kind) => namesSdkAlias(param.typeNode, INPUT_TYPE_NAMES[kind]));
}

const inputParser: ParamParser = {
  name: 'input',
  supports: (param) => kindOf(param) !== undefined,
  toSchema: (param) => ({ kind: 'value', schema: inputSchema(kindOf(param)!), optional: param.optional }),
};

// A fixed tuple of scalars (`[number, number, number]`, also with labels or `readonly`) →
// `{"type":"array","prefixItems":[...],"items":false,"minItems":n,"maxItems":n}`.
// Optional and rest elements are refused: the length must be fixed.
/** The written element annotations, when the annotation is a tuple literal. */
function elementNodes(node: TypeNode | undefined): (TypeNode | undefined)[] | undefined {
  let typeNode = unwrapParens(node);
  if (typeNode && Node.isTypeOperatorTypeNode(typeNode)) typeNode = unwrapParens(typeNode.getTypeNode());
  if (!typeNode || !Node.isTupleTypeNode(typeNode)) return undefined;
  return typeNode.getElements().map((element) => (Node.isNamedTupleMember(element) ? element.getTypeNode() : element));
}

const tupleParser: ParamParser = {
  name: 'tuple',
  supports: (param) => single(param.members)?.isTuple() === true,
  toSchema(param, chain) {
    const type = single(param.members)!;
    const flags = (type.compilerType as ts.TupleTypeReference).target.elementFlags;
    const nodes = elementNodes(param.typeNode);
    const elements = type.getTupleElements();
    const prefixItems = elements.map((element, index) => {
      const node = nodes?.[index];
      if (flags[index] !== ts.ElementFlags.Required) {
        const written = node?.getText() ?? element.getText();
        throw new SchemaError(
          'VITRINE_SCHEMA_100',
          node ?? param.typeNode ?? param.declaration,
          `parameter '${param.declaration.getName()}' has element ${index} \`${written}\`, which is optional or rest; every element of a tuple parameter ` +
          `must be present (use an array for a list of any length)`,
        );
      }
      return elementSchema(param, element, node, chain, `element ${index}`);
    });
    return { kind: 'value', schema: tupleFragment(prefixItems), optional: param.optional };
  },
};

// `number[]`, `Integer[]`, `string[]`, `boolean[]` (also `Array<T>`, `readonly T[]`, and
// arrays of colours, literal unions or fixed tuples such as `[number, number, number][]`, a
// list of points) → `{"type":"array","items":{...}}`. Item counts come
// from the `@minItems`/`@maxItems` doc tags (generate-schema adds them).
/** The written element annotation of `T[]`, `readonly T[]`, `Array<T>` or `ReadonlyArray<T>`. */
function elementNode(node: TypeNode | undefined): TypeNode | undefined {
  let typeNode = unwrapParens(node);
  if (typeNode && Node.isTypeOperatorTypeNode(typeNode)) typeNode = unwrapParens(typeNode.getTypeNode());
  if (typeNode && Node.isArrayTypeNode(typeNode)) return typeNode.getElementTypeNode();
  if (typeNode && Node.isTypeReference(typeNode) && /^(Readonly)?Array$/.test(typeNode.getTypeName().getText())) return typeNode.getTypeArguments()[0];
  return undefined;
}

const arrayParser: ParamParser = {
  name: 'array',
  supports(param) {
    const type = single(param.members);
    return type !== undefined && !type.isTuple() && (type.isArray() || type.isReadonlyArray());
  },
  toSchema(param, chain) {
    const type = single(param.members)!;
    const element = type.getArrayElementType() ?? type.getTypeArguments()[0]!;
    const items = elementSchema(param, element, elementNode(param.typeNode), chain, 'an element', true);
    return { kind: 'value', schema: arrayFragment(items), optional: param.optional };
  },
};

// The scalar kinds: `boolean` → `{"type":"boolean"}`, `number` → `{"type":"number"}`, `string`
// → `{"type":"string"}`, and the 'vitrine' markers `Integer` → `{"type":"integer"}` and `Color`
// → `{"type":"string","format":"color","pattern":...}`. The markers are recognised by their
// annotation, since their types are plain `number` and `string`: each must precede the plain
// parser of its type. Number literal types are not numbers here (unsupported). The checker sees
// `boolean` as `true | false`, so the boolean parser must precede the string-enum parser.
/** The parser of the parameters `supports` takes, each a value whose schema is `schema()`. */
function valueParser(name: string, supports: ParamParser['supports'], schema: () => SchemaFragment): ParamParser {
  return { name, supports, toSchema: (param) => ({ kind: 'value', schema: schema(), optional: param.optional }) };
}

const booleanParser = valueParser(
  'boolean',
  ({ members }) => {
    if (members.length === 1) return members[0]!.isBoolean();
    const literals = members.map((member) => member.getText());
    return members.length === 2 && members.every((member) => member.isBooleanLiteral()) && literals.includes('true') && literals.includes('false');
  },
  () => scalarFragment('boolean'),
);

const integerParser = valueParser(
  'integer',
  (param) => single(param.members)?.isNumber() === true && namesSdkAlias(param.typeNode, 'Integer'),
  () => scalarFragment('integer'),
);

const numberParser = valueParser('number', (param) => single(param.members)?.isNumber() === true, () => scalarFragment('number'));

const colorParser = valueParser('color', (param) => single(param.members)?.isString() === true && namesSdkAlias(param.typeNode, 'Color'), colorSchema);

const stringParser = valueParser('string', (param) => single(param.members)?.isString() === true, () => scalarFragment('string'));

// A union of string literals (`'fast' | 'fine'`) → `{"enum":["fast","fine"]}`, or of number
// literals (`1 | 2 | 4`) → `{"enum":[1,2,4]}`, in the order written when there is an
// annotation (the checker may reorder union members). A single literal (`2`) is a one-value enum.
function literalValues<T extends string | number>(param: ParamInput, read: (value: unknown) => T): T[] {
  const fromChecker = param.members.map((member) => read(member.getLiteralValue()));
  const node = unwrapParens(param.typeNode);
  if (node && Node.isUnionTypeNode(node)) {
    const written = node.getTypeNodes().map((member) => read(member.getType().getLiteralValue()));
    const sameSet = written.length === fromChecker.length && written.every((value) => fromChecker.includes(value));
    if (sameSet) return written;
  }
  return fromChecker;
}

/** The parser of a union whose every member is a literal `isLiteral` takes (no enum member), read with `read`. */
function enumParser(name: string, isLiteral: (member: Type) => boolean, read: (value: unknown) => string | number): ParamParser {
  return {
    name,
    supports: (param) => param.members.length > 0 && param.members.every((member) => isLiteral(member) && !member.isEnumLiteral()),
    toSchema: (param) => ({ kind: 'value', schema: enumFragment(literalValues(param, read)), optional: param.optional }),
  };
}

const stringEnumParser = enumParser('string-enum', (member) => member.isStringLiteral(), String);
const numberEnumParser = enumParser('number-enum', (member) => member.isNumberLiteral(), Number);

/** The parsers in the order they are tried. */
export const PARAM_PARSERS: readonly ParamParser[] = [
  optionalParser,
  progressReporterParser,
  abortSignalParser,
  inputParser,
  tupleParser,
  arrayParser,
  booleanParser,
  integerParser,
  numberParser,
  colorParser,
  stringParser,
  stringEnumParser,
  numberEnumParser,
];

/** Creates the chain: first supporting parser wins; none gives VITRINE_SCHEMA_100. */
export function createParamParser(parsers: readonly ParamParser[] = PARAM_PARSERS): ParamChain {
  const chain: ParamChain = {
    parse(param: ParamInput): ParsedParam {
      const parser = parsers.find((candidate) => candidate.supports(param));
      if (!parser) throw unsupportedType(param);
      return parser.toSchema(param, chain);
    },
  };
  return chain;
}
