/**
 * @module optional-annotation
 * `T | None`, `Optional[T]`, `Union[T, None]`: removes `None`, marks the parameter optional,
 * and hands `T` back to the chain (the twin of the TypeScript `T | undefined`). A union of
 * several kinds besides None is left to the fallback, which says so.
 */
import { isNone, unionMembers } from '../python-names.ts';
import type { PyAnnotationInput, PyAnnotationParser } from './annotation-parser.ts';

function rest(input: PyAnnotationInput) {
  const members = unionMembers(input.expr, input.scope);
  if (!members || !members.some(isNone)) return undefined;
  const others = members.filter((member) => !isNone(member));
  return others.length === 1 ? others[0] : undefined;
}

export const optionalAnnotation: PyAnnotationParser = (input, chain) => {
  const inner = rest(input);
  if (inner === undefined) return undefined;
  const result = chain.parse({ ...input, expr: inner, optional: true });
  return { ...result, parsed: { ...result.parsed, optional: true } };
};
