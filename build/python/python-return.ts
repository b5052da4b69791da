/**
 * @module python-return
 * Decides what a module-level Python function is, from its return annotation: registered when
 * it is `MeshResult`, `VolumeResult`, `PointCloudResult` or `ImageResult` (also quoted or
 * qualified, `async def` included); an error when it names one inside something else
 * (`MeshResult | None`, `list[MeshResult]`), which looks meant but cannot be served; a helper,
 * ignored, otherwise.
 */
import type { ResultType } from '../../core/sdk/result-types.ts';
import { RESULT_NAMES } from '../plugins/classify-return-type.ts';
import { nameOf, typeExpression, type PyScope } from './python-names.ts';
import type { PyExpr } from './reader-output.ts';

export type PyReturnClass = { kind: 'result'; returnType: ResultType } | { kind: 'error'; at: PyExpr; message: string } | { kind: 'helper' };

/** True when a result type is named anywhere inside `expr`. */
function mentionsResult(expr: PyExpr, scope: PyScope): boolean {
  const target = typeExpression(expr);
  const name = nameOf(target, scope);
  if (name !== undefined && Object.hasOwn(RESULT_NAMES, name)) return true;
  switch (target.kind) {
    case 'subscript':
      return mentionsResult(target.value, scope) || target.args.some((arg) => mentionsResult(arg, scope));
    case 'binop':
      return mentionsResult(target.left, scope) || mentionsResult(target.right, scope);
    case 'sequence':
      return target.items.some((item) => mentionsResult(item, scope));
    default:
      return false;
  }
}

export function classifyPythonReturn(returns: PyExpr | null, scope: PyScope): PyReturnClass {
  if (returns === null) return { kind: 'helper' };
  const name = nameOf(returns, scope);
  if (name !== undefined && Object.hasOwn(RESULT_NAMES, name)) return { kind: 'result', returnType: RESULT_NAMES[name]! };
  if (mentionsResult(returns, scope)) {
    return {
      kind: 'error',
      at: returns,
      message: `return annotation \`${returns.text}\` is not a result type; a specimen function is annotated \`-> MeshResult\` (VolumeResult, ` +
        `PointCloudResult or ImageResult), also when it is \`async def\``,
    };
  }
  return { kind: 'helper' };
}
