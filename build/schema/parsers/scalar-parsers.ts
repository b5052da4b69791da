/**
 * @module scalar-parsers
 * The scalar kinds: `boolean` → `{"type":"boolean"}`, `number` → `{"type":"number"}`, `string`
 * → `{"type":"string"}`, and the 'vitrine' markers `Integer` → `{"type":"integer"}` and `Color`
 * → `{"type":"string","format":"color","pattern":...}`. The markers are recognised by their
 * annotation, since their types are plain `number` and `string`: each must precede the plain
 * parser of its type. Number literal types are not numbers here (unsupported). The checker sees
 * `boolean` as `true | false`, so the boolean parser must precede the string-enum parser.
 */
import { colorSchema } from '../../../core/params/param-vocabulary.ts';
import type { ParamParser, SchemaFragment } from '../param-parser.ts';
import { scalarFragment } from '../schema-object.ts';
import { namesSdkAlias, single } from '../type-queries.ts';

/** The parser of the parameters `supports` takes, each a value whose schema is `schema()`. */
function valueParser(name: string, supports: ParamParser['supports'], schema: () => SchemaFragment): ParamParser {
  return { name, supports, toSchema: (param) => ({ kind: 'value', schema: schema(), optional: param.optional }) };
}

export const booleanParser = valueParser(
  'boolean',
  ({ members }) => {
    if (members.length === 1) return members[0]!.isBoolean();
    const literals = members.map((member) => member.getText());
    return members.length === 2 && members.every((member) => member.isBooleanLiteral()) && literals.includes('true') && literals.includes('false');
  },
  () => scalarFragment('boolean'),
);

export const integerParser = valueParser(
  'integer',
  (param) => single(param.members)?.isNumber() === true && namesSdkAlias(param.typeNode, 'Integer'),
  () => scalarFragment('integer'),
);

export const numberParser = valueParser('number', (param) => single(param.members)?.isNumber() === true, () => scalarFragment('number'));

export const colorParser = valueParser('color', (param) => single(param.members)?.isString() === true && namesSdkAlias(param.typeNode, 'Color'), colorSchema);

export const stringParser = valueParser('string', (param) => single(param.members)?.isString() === true, () => scalarFragment('string'));
