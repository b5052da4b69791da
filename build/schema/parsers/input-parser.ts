/**
 * @module input-parser
 * `MeshInput`, `VolumeInput`, `PointCloudInput`, `ImageInput` from 'vitrine' → the input
 * object schema marked `x-vitrine-input`. Recognised by the annotation, because the checker
 * spreads `VolumeInput` (a union over dtypes) into members that no longer carry its name.
 */
import { INPUT_KINDS, INPUT_TYPE_NAMES, inputSchema } from '../../../core/wire/input-schema.ts';
import type { InputKind } from '../../../core/sdk/input-types.ts';
import type { ParamInput, ParamParser } from '../param-parser.ts';
import { namesSdkAlias } from '../type-queries.ts';

function kindOf(param: ParamInput): InputKind | undefined {
  return INPUT_KINDS.find((kind) => namesSdkAlias(param.typeNode, INPUT_TYPE_NAMES[kind]));
}

export const inputParser: ParamParser = {
  name: 'input',
  supports: (param) => kindOf(param) !== undefined,
  toSchema: (param) => ({ kind: 'value', schema: inputSchema(kindOf(param)!), optional: param.optional }),
};
