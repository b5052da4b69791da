/**
 * @module classify-return-type
 * Decides what an exported function is, from its return type:
 * - registered: the declared return type is `MeshResult`, `VolumeResult`, `PointCloudResult`
 *   or `ImageResult` from 'vitrine', or a `Promise` of one;
 * - an error (it looks like a specimen function but is not one): a declared return type that
 *   is `any`/`unknown`, another result-like object type (with `vertices`/`indices`,
 *   `shape`+`data`, `points`, or `width`+`height`+`data`, e.g. `SpecimenResult` or a home-made
 *   mesh type), or no annotation while the inferred type is result-like;
 * - a helper, ignored with a note: anything else (numbers, strings, arrays, void...).
 */
import type { Type, TypeNode } from 'ts-morph';
import type { ResultType } from '../../core/sdk/result-types.ts';
import { isSdkFile } from '../project/sdk-paths.ts';
import type { FunctionNode } from '../schema/generate-schema.ts';

export type ReturnClass =
  | { kind: 'result'; returnType: ResultType; async: boolean }
  | { kind: 'error'; message: string; node: FunctionNode | TypeNode }
  | { kind: 'helper'; typeText: string };

/** The SDK's result type names, and the result type each stands for (TypeScript and Python alike). */
export const RESULT_NAMES: Record<string, ResultType> = {
  MeshResult: 'mesh',
  VolumeResult: 'volume',
  PointCloudResult: 'point_cloud',
  ImageResult: 'image',
};

const RESULT_LIST = 'MeshResult, VolumeResult, PointCloudResult or ImageResult (or a Promise of one)';

/** The Promise's value type, or undefined when `type` is not a Promise. */
function promisedType(type: Type): Type | undefined {
  const name = type.getSymbol()?.getName();
  if (name !== 'Promise' && name !== 'PromiseLike') return undefined;
  return type.getTypeArguments()[0];
}

/** The result kind when `type` is exactly one of the four SDK result types. */
function resultTypeOf(type: Type): ResultType | undefined {
  for (const symbol of [type.getAliasSymbol(), type.isUnion() ? undefined : type.getSymbol()]) {
    const kind = symbol ? RESULT_NAMES[symbol.getName()] : undefined;
    if (kind && symbol!.getDeclarations().some((declaration) => isSdkFile(declaration.getSourceFile().getFilePath()))) return kind;
  }
  return undefined;
}

/** True when `type` (or a member of it) has the fields of a typed result. */
function looksLikeResult(type: Type): boolean {
  if (type.isUnion()) return type.getUnionTypes().some(looksLikeResult);
  if (!type.isObject() && !type.isIntersection()) return false;
  const names = new Set(type.getProperties().map((property) => property.getName()));
  return (
    names.has('vertices') ||
    names.has('indices') ||
    (names.has('shape') && names.has('data')) ||
    names.has('points') ||
    (names.has('width') && names.has('height') && names.has('data'))
  );
}

export function classifyReturnType(fn: FunctionNode): ReturnClass {
  const declared = fn.getReturnTypeNode();
  const full = declared ? declared.getType() : fn.getReturnType();
  const promised = promisedType(full);
  const type = promised ?? full;
  const returnType = resultTypeOf(type);
  const typeText = declared ? declared.getText() : full.getText(fn);
  if (declared) {
    if (returnType) return { kind: 'result', returnType, async: fn.isAsync() || promised !== undefined };
    if (type.isAny() || type.isUnknown()) {
      return { kind: 'error', node: declared, message: `declared return type \`${typeText}\` says nothing; a specimen function returns ${RESULT_LIST}` };
    }
    if (looksLikeResult(type)) {
      return { kind: 'error', node: declared, message: `return type \`${typeText}\` looks like a result but is not one; declare ${RESULT_LIST}` };
    }
    return { kind: 'helper', typeText };
  }
  if (returnType || looksLikeResult(type)) {
    return { kind: 'error', node: fn, message: `returns a result-like \`${typeText}\` without a return type annotation; declare ${RESULT_LIST}` };
  }
  return { kind: 'helper', typeText };
}
