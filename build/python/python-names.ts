/**
 * @module python-names
 * How the build reads names in Python annotations: through the module's imports (`t.Optional`
 * with `import typing as t`, `R` with `from vitrine import Range as R`), with `typing.`,
 * `typing_extensions.`, `builtins.` and `vitrine.` qualifications reduced to the name itself;
 * and through string annotations (`"float"`, or every annotation under
 * `from __future__ import annotations` written as a string) to the expression they name.
 */
import type { SourceLocation } from '../diagnostics/build-diagnostic.ts';
import type { PyExpr, PyPosition } from './reader-output.ts';

/** Modules whose names mean the same wherever they are imported from. */
const KNOWN_MODULES = new Set(['typing', 'typing_extensions', 'builtins', 'vitrine']);

/** What names in one module refer to, and where the module is. */
export interface PyScope {
  /** Absolute path of the module. */
  file: string;
  /** Local name → what it imports (from the reader). */
  imports: Record<string, string>;
}

/** The build location of a reader position in `scope`'s module. */
export function locationIn(scope: PyScope, at: PyPosition): SourceLocation {
  return { file: scope.file, line: at.line, column: at.col };
}

/**
 * The name an expression stands for: `Optional` for `typing.Optional` or `t.Optional`, `Range`
 * for `vitrine.Range` or an alias of it, the qualified name for anything else (`numpy.ndarray`),
 * `None` for the constant None; undefined when the expression is no name.
 */
export function nameOf(expr: PyExpr, scope: PyScope): string | undefined {
  const target = typeExpression(expr);
  if (target.kind === 'constant' && target.value === null) return 'None';
  if (target.kind !== 'name') return undefined;
  const [head, ...rest] = target.name.split('.');
  const origin = scope.imports[head!];
  const qualified = origin ? [origin, ...rest].join('.') : target.name;
  const parts = qualified.split('.');
  return KNOWN_MODULES.has(parts[0]!) && parts.length > 1 ? parts[parts.length - 1]! : qualified;
}

/** An annotation with string forms replaced by the expression they name. */
export function typeExpression(expr: PyExpr): PyExpr {
  let current = expr;
  while (current.kind === 'constant' && typeof current.value === 'string' && current.parsed) current = current.parsed;
  return current;
}

/** True for `None` (the constant, or a string annotation naming it). */
export function isNone(expr: PyExpr): boolean {
  const target = typeExpression(expr);
  return target.kind === 'constant' && target.value === null;
}

/** `Name[args]`: the subscript's arguments when `expr` subscripts the name `name`. */
export function subscriptArgs(expr: PyExpr, scope: PyScope, ...names: string[]): PyExpr[] | undefined {
  const target = typeExpression(expr);
  if (target.kind !== 'subscript') return undefined;
  const name = nameOf(target.value, scope);
  return name !== undefined && names.includes(name) ? target.args : undefined;
}

/**
 * The members of a union (`A | B`, `Union[A, B]`, `Optional[A]` as `A | None`), flattened;
 * undefined when `expr` is no union.
 */
export function unionMembers(expr: PyExpr, scope: PyScope): PyExpr[] | undefined {
  const target = typeExpression(expr);
  const flatten = (member: PyExpr): PyExpr[] => unionMembers(member, scope) ?? [member];
  if (target.kind === 'binop' && target.op === '|') return [...flatten(target.left), ...flatten(target.right)];
  const union = subscriptArgs(target, scope, 'Union');
  if (union) return union.flatMap(flatten);
  const optional = subscriptArgs(target, scope, 'Optional');
  if (optional && optional.length === 1) return [...flatten(optional[0]!), { line: target.line, col: target.col, text: 'None', kind: 'constant', value: null }];
  return undefined;
}
