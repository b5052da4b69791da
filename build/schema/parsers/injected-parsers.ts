/**
 * @module injected-parsers
 * `ProgressReporter` and `AbortSignal` (each optionally absent): injected by the host, the
 * signal aborted when a job is cancelled; not part of the schema.
 */
import type { ParamParser, ParsedParam } from '../param-parser.ts';
import { isNamedType, single } from '../type-queries.ts';

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

export const progressReporterParser = injectedParser('progress-reporter', 'ProgressReporter', 'reporter');
export const abortSignalParser = injectedParser('abort-signal', 'AbortSignal', 'signal');
