/**
 * @module progress-reporter-parser
 * `ProgressReporter` (optionally absent): injected by the host, not part of the schema.
 */
import type { ParamParser } from '../param-parser.ts';
import { isNamedType, single } from '../type-queries.ts';

export const progressReporterParser: ParamParser = {
  name: 'progress-reporter',
  supports(param) {
    const type = single(param.members);
    return type !== undefined && isNamedType(type, 'ProgressReporter');
  },
  toSchema: (param) => ({ kind: 'reporter', optional: param.optional }),
};
