/**
 * @module unsupported-annotation
 * The chain's fallback for Python, the twin of build/schema/unsupported-type.ts: the coded
 * error for an annotation no parser supports, naming it, the closest supported annotation,
 * and everything that is supported.
 */
import { INPUT_OF_RESULT } from '../../schema/closest-type.ts';
import { SchemaError } from '../../schema/schema-error.ts';
import { isNone, locationIn, nameOf, subscriptArgs, typeExpression, unionMembers } from '../python-names.ts';
import type { PyExpr } from '../reader-output.ts';
import type { PyAnnotationInput } from './annotation-parser.ts';

/** What the build accepts, as told to Python plugin authors in VITRINE_SCHEMA_100. */
export const SUPPORTED_ANNOTATIONS_TEXT =
  'float, int, str, bool, Literal[...] of strings or of numbers, Annotated[float | int, Range(lo, hi)], ' +
  'tuple[...] and list[...] of those (Annotated[list[...], Items(min=, max=)] for a length), Color, ' +
  'MeshInput, VolumeInput, PointCloudInput and ImageInput (from vitrine), ProgressReporter (injected), ' +
  'each optionally `| None = None`';

const ARRAY_TYPES = new Set(['numpy.ndarray', 'np.ndarray', 'ndarray', 'NDArray', 'numpy.typing.NDArray', 'ArrayLike', 'numpy.typing.ArrayLike']);

function hintFor(expr: PyExpr, input: PyAnnotationInput): string | null {
  const { scope } = input;
  const name =
    nameOf(expr, scope) ?? (typeExpression(expr).kind === 'subscript' ? nameOf((typeExpression(expr) as { value: PyExpr }).value, scope) : undefined);
  if (name === undefined) return null;
  if (INPUT_OF_RESULT[name]) return `${INPUT_OF_RESULT[name]} (from vitrine): the host resolves a specimen or an upload into that result`;
  if (ARRAY_TYPES.has(name))
    return "VolumeInput, MeshInput, PointCloudInput or ImageInput (from vitrine) for another specimen's data, or list[float] for a few numbers";
  if (name === 'datetime' || name === 'datetime.datetime' || name === 'date') return 'float (seconds since the epoch) or str (an ISO 8601 date)';
  if (name === 'complex') return 'tuple[float, float]';
  if (['dict', 'Dict', 'Mapping', 'set', 'Set', 'frozenset'].includes(name)) return 'separate parameters, or a list[...] of one scalar type';
  if (name === 'Any' || name === 'object') return 'float, int, str or bool, written out';
  if (name === 'tuple' || name === 'Tuple') return 'tuple[...] with every element written, e.g. tuple[float, float, float] (a list[float] for any length)';
  if (name === 'list' || name === 'List' || name === 'Sequence' || name === 'Iterable') {
    const args = subscriptArgs(expr, scope, 'list', 'List', 'Sequence', 'Iterable');
    const element = args?.[0];
    if (element && (subscriptArgs(element, scope, 'list', 'List', 'tuple', 'Tuple') || ['list', 'tuple'].includes(nameOf(element, scope) ?? '')))
      return 'a flat list[float] (nested lists have no slider form), or separate parameters';
    return 'list[float], list[int], list[str] or list[bool]';
  }
  if (name === 'None') return 'an optional parameter (`x: float | None = None`)';
  if (name === 'Integer') return 'int';
  return null;
}

/** The hint for `input`, or null when nothing is closer than the full list. */
function closestAnnotation(input: PyAnnotationInput): string | null {
  const members = unionMembers(input.expr, input.scope);
  if (members) {
    const rest = members.filter((member) => !isNone(member));
    if (rest.length > 1) return 'one kind per parameter: Literal["a", "b"] for a choice of strings, Literal[1, 2, 4] for numbers';
  }
  return hintFor(input.expr, input);
}

export function unsupportedAnnotation(input: PyAnnotationInput): SchemaError {
  const closest = closestAnnotation(input);
  const hint = closest ? `; use ${closest} instead` : '';
  return new SchemaError(
    'VITRINE_SCHEMA_100',
    locationIn(input.scope, input.expr),
    `parameter '${input.parameter}' has annotation '${input.expr.text}'${hint}; supported: ${SUPPORTED_ANNOTATIONS_TEXT}`,
  );
}
