/**
 * @module create-annotation-chain
 * The one place the Python parser order lives. Optional first (it strips `None` and
 * recurses), then `Annotated` (it maps its first argument through the chain), then the
 * subscripted forms, then the single names. No match gives VITRINE_SCHEMA_100.
 */
import type { PyAnnotationChain, PyAnnotationInput, PyAnnotationParser, PyParsed } from './annotation-parser.ts';
import { annotatedAnnotation } from './annotated-annotation.ts';
import { literalAnnotation } from './literal-annotation.ts';
import { namedAnnotation } from './named-annotation.ts';
import { optionalAnnotation } from './optional-annotation.ts';
import { listAnnotation, tupleAnnotation } from './sequence-annotation.ts';
import { unsupportedAnnotation } from './unsupported-annotation.ts';

/** The parsers in the order they are tried. */
const ANNOTATION_PARSERS: readonly PyAnnotationParser[] = [
  optionalAnnotation,
  annotatedAnnotation,
  literalAnnotation,
  tupleAnnotation,
  listAnnotation,
  namedAnnotation,
];

export function createAnnotationChain(): PyAnnotationChain {
  const chain: PyAnnotationChain = {
    parse(input: PyAnnotationInput): PyParsed {
      for (const parser of ANNOTATION_PARSERS) {
        const parsed = parser(input, chain);
        if (parsed) return parsed;
      }
      throw unsupportedAnnotation(input);
    },
  };
  return chain;
}
