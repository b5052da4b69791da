/**
 * @module boolean-parser
 * `boolean` → `{"type":"boolean"}`. The checker sees `boolean` as `true | false`, so this
 * parser must precede the string-enum parser.
 */
import type { ParamParser } from '../param-parser.ts';
import { scalarFragment } from '../schema-object.ts';

export const booleanParser: ParamParser = {
  name: 'boolean',
  supports(param) {
    const { members } = param;
    if (members.length === 1) return members[0]!.isBoolean();
    const literals = members.map((member) => member.getText());
    return members.length === 2 && members.every((member) => member.isBooleanLiteral()) && literals.includes('true') && literals.includes('false');
  },
  toSchema: (param) => ({ kind: 'value', schema: scalarFragment('boolean'), optional: param.optional }),
};
