/**
 * @module closest-type
 * The "use this instead" hint of the unsupported-type error: for a parameter type the build
 * cannot turn into a schema, the supported type that says the same thing most nearly.
 */
import type { Type } from 'ts-morph';
import type { ParamInput } from './param-parser.ts';

/** Result types a parameter may mean when it wants another specimen's data. */
export const INPUT_OF_RESULT: Record<string, string> = {
  MeshResult: 'MeshInput',
  VolumeResult: 'VolumeInput',
  PointCloudResult: 'PointCloudInput',
  ImageResult: 'ImageInput',
};

const TYPED_ARRAYS = /^(Float32|Float64|Int8|Int16|Int32|Uint8|Uint8Clamped|Uint16|Uint32)Array$/;

function nameOf(type: Type): string {
  return type.getSymbol()?.getName() ?? type.getAliasSymbol()?.getName() ?? type.getText();
}

function hintFor(type: Type): string | null {
  const name = nameOf(type);
  if (INPUT_OF_RESULT[name]) return `${INPUT_OF_RESULT[name]} (from 'vitrine'): the host resolves a specimen or an upload into that result`;
  if (name === 'Date') return 'number (a time in milliseconds since the epoch) or string (an ISO 8601 date)';
  if (type.isBigInt() || type.isBigIntLiteral()) return "Integer (from 'vitrine')";
  if (TYPED_ARRAYS.test(name)) return 'number[] (a list the schema can describe)';
  if (type.isArray()) {
    const element = type.getArrayElementType();
    if (element?.isArray() || element?.isTuple()) return 'a flat number[] (nested lists have no slider form), or separate parameters';
    if (element?.isObject()) return 'separate array parameters, one per field';
    return 'number[], string[], boolean[] or a fixed tuple';
  }
  if (type.isTuple()) return 'a fixed tuple of numbers, strings or booleans only, e.g. [number, number, number]';
  if (name === 'Map' || name === 'Set' || name === 'Record') return 'separate parameters, or an array of one scalar type';
  if (type.isObject()) return 'one parameter per field (number, string, boolean, Color, ...), or a fixed tuple such as [number, number, number] for a vector';
  if (type.isAny() || type.isUnknown()) return 'number, string or boolean, written out';
  return null;
}

/** The hint for `param`, or null when nothing is closer than the full list. */
export function closestSupportedType(param: ParamInput): string | null {
  const members = param.members.filter((member) => !member.isUndefined());
  if (param.declaration.getTypeNode() === undefined && param.declaration.getInitializer() === undefined) return 'an annotation such as `: number`';
  if (members.some((member) => member.isNull())) return 'an optional parameter (`name?: number`): a client leaves it out rather than sending null';
  if (members.length > 1) {
    const kinds = new Set(
      members.map((member) => (member.isStringLiteral() || member.isString() ? 'string' : member.isNumberLiteral() || member.isNumber() ? 'number' : 'other')),
    );
    if (kinds.size > 1) return "one kind per parameter: a union of string literals ('a' | 'b'), or of number literals (1 | 2 | 4)";
  }
  for (const member of members) {
    const hint = hintFor(member);
    if (hint) return hint;
  }
  return null;
}
