/**
 * @module unsupported-type
 * The chain's fallback: the coded error for a type no parser supports, naming the type and
 * listing what is supported.
 */
import { TypeFormatFlags } from 'ts-morph';
import type { ParamInput } from './param-parser.ts';
import { SchemaError } from './schema-error.ts';

/** What the build accepts, as told to plugin authors in VITRINE_SCHEMA_100. */
export const SUPPORTED_TYPES_TEXT =
  "number, Integer and Color (from 'vitrine'), string, boolean, a union of string or number literals, " +
  'a fixed tuple or an array of those, MeshInput, VolumeInput, PointCloudInput and ImageInput (from ' +
  "'vitrine'), ProgressReporter and AbortSignal (injected), each optionally `| undefined` or with `?`";

/** The written type of a parameter, or the checker's rendering of it. */
export function describeType(param: ParamInput): string {
  if (param.typeNode) return param.typeNode.getText();
  if (param.members.length === 0) return 'never';
  return param.members
    .map((member) => member.getText(param.declaration, TypeFormatFlags.UseAliasDefinedOutsideCurrentScope))
    .join(' | ');
}

export function unsupportedType(param: ParamInput): SchemaError {
  const written = param.declaration.getTypeNode() === undefined && param.declaration.getInitializer() === undefined;
  const what = written ? 'has no type annotation' : `has type '${describeType(param)}'`;
  return new SchemaError(
    'VITRINE_SCHEMA_100',
    param.declaration.getTypeNode() ?? param.declaration,
    `parameter '${param.declaration.getName()}' ${what}; supported: ${SUPPORTED_TYPES_TEXT}`,
  );
}
