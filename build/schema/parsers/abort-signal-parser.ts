/**
 * @module abort-signal-parser
 * `AbortSignal` (optionally absent): injected by the host, aborted when a job is cancelled;
 * not part of the schema.
 */
import type { ParamParser } from '../param-parser.ts';
import { isNamedType, single } from '../type-queries.ts';

export const abortSignalParser: ParamParser = {
  name: 'abort-signal',
  supports(param) {
    const type = single(param.members);
    return type !== undefined && isNamedType(type, 'AbortSignal');
  },
  toSchema: (param) => ({ kind: 'signal', optional: param.optional }),
};
