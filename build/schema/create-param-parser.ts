/**
 * @module create-param-parser
 * The one place the parser order lives. Optional first (it strips `undefined` and recurses),
 * then the injected kinds, then inputs (recognised by annotation; `VolumeInput` is a union to
 * the checker), tuples and arrays (which parse their elements through this same chain), then
 * the scalar kinds. Boolean must come before the literal unions (ts-morph sees `boolean` as
 * the union `true | false`; ts-morph issue #1442), Integer before number and Color before
 * string (both are plain to the checker; only their annotation differs).
 */
import type { ParamChain, ParamInput, ParamParser, ParsedParam } from './param-parser.ts';
import { unsupportedType } from './unsupported-type.ts';
import { optionalParser } from './parsers/optional-parser.ts';
import { abortSignalParser, progressReporterParser } from './parsers/injected-parsers.ts';
import { booleanParser, colorParser, integerParser, numberParser, stringParser } from './parsers/scalar-parsers.ts';
import { numberEnumParser, stringEnumParser } from './parsers/enum-parsers.ts';
import { inputParser } from './parsers/input-parser.ts';
import { tupleParser } from './parsers/tuple-parser.ts';
import { arrayParser } from './parsers/array-parser.ts';

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
