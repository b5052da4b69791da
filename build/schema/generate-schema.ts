/**
 * @module generate-schema
 * One function's parameters → its manifest parameter list and its JSON Schema (draft
 * 2020-12). Value parameters become properties in parameter order; injected ones (reporter,
 * signal) are only recorded. Every problem becomes a diagnostic; generation goes on so one
 * build reports all of them.
 */
import { Node, type ArrowFunction, type FunctionDeclaration, type FunctionExpression, type JSDoc, type ParameterDeclaration } from 'ts-morph';
import type { ManifestParameter } from '../../core/registry/manifest-types.ts';
import { createDiagnostic, type BuildDiagnostic, type DiagnosticSubject } from '../diagnostics/build-diagnostic.ts';
import type { ParamChain, ParsedParam, SchemaFragment } from './param-parser.ts';
import { readBounds, type Bounds } from './read-bounds.ts';
import { readDefault, type DefaultValue } from './read-default.ts';
import { readDoc } from './read-doc.ts';
import { SchemaError } from './schema-error.ts';

export const SCHEMA_DIALECT = 'https://json-schema.org/draft/2020-12/schema';

export type FunctionNode = FunctionDeclaration | ArrowFunction | FunctionExpression;

export interface GeneratedSignature {
  parameters: ManifestParameter[];
  reporterParameter: string | null;
  signalParameter: string | null;
  schema: Record<string, unknown>;
}

/** A property in the fixed key order: type/enum, description, default, minimum, maximum. */
function toProperty(fragment: SchemaFragment, description: string | undefined, defaultValue: DefaultValue | undefined, bounds: Bounds | undefined): Record<string, unknown> {
  const property: Record<string, unknown> = { ...fragment };
  if (description !== undefined) property['description'] = description;
  if (defaultValue !== undefined) property['default'] = defaultValue;
  if (bounds?.minimum !== undefined) property['minimum'] = bounds.minimum;
  if (bounds?.maximum !== undefined) property['maximum'] = bounds.maximum;
  return property;
}

/** Why `value` cannot be the default of `fragment`, or undefined when it fits. */
function defaultMismatch(fragment: SchemaFragment, value: DefaultValue): string | undefined {
  if ('enum' in fragment) {
    return fragment.enum.includes(value as string) ? undefined : `is not one of ${fragment.enum.map((v) => JSON.stringify(v)).join(', ')}`;
  }
  const ok =
    fragment.type === 'integer' ? Number.isInteger(value) : fragment.type === 'number' ? typeof value === 'number' && Number.isFinite(value) : typeof value === fragment.type;
  return ok ? undefined : `is not ${fragment.type === 'integer' ? 'an integer' : `a ${fragment.type}`}`;
}

function outOfBounds(value: DefaultValue, bounds: Bounds | undefined): string | undefined {
  if (typeof value !== 'number' || !bounds) return undefined;
  if (bounds.minimum !== undefined && value < bounds.minimum) return `is below the minimum ${bounds.minimum}`;
  if (bounds.maximum !== undefined && value > bounds.maximum) return `is above the maximum ${bounds.maximum}`;
  return undefined;
}

function isNumeric(parsed: ParsedParam): boolean {
  return parsed.kind === 'value' && 'type' in parsed.schema && (parsed.schema.type === 'number' || parsed.schema.type === 'integer');
}

/**
 * Generates the signature of `fn` registered as `name`. `docs` is the doc comment owner's
 * JSDoc (the function declaration, or the variable statement of an arrow function).
 */
export function generateSchema(fn: FunctionNode, name: string, docs: JSDoc[], chain: ParamChain, subject: DiagnosticSubject, diagnostics: BuildDiagnostic[]): GeneratedSignature {
  const doc = readDoc(docs);
  const report = (error: SchemaError, parameterName = error.parameterName): void => {
    diagnostics.push(createDiagnostic(error.code, error.node, error.message, { ...subject, functionName: name, ...(parameterName !== undefined ? { parameterName } : {}) }));
  };
  const boundErrors: SchemaError[] = [];
  const bounds = readBounds(doc.bounds, boundErrors);
  for (const error of boundErrors) report(error);

  const parameters: ManifestParameter[] = [];
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  let reporterParameter: string | null = null;
  let signalParameter: string | null = null;
  const seen = new Set<string>();

  for (const declaration of fn.getParameters()) {
    const nameNode = declaration.getNameNode();
    if (!Node.isIdentifier(nameNode) || declaration.isRestParameter()) {
      const what = declaration.isRestParameter() ? 'a rest parameter' : 'a destructured parameter';
      report(new SchemaError('VITRINE_SCHEMA_106', declaration, `\`${declaration.getText()}\` is ${what}; declare one named parameter per schema property`), declaration.getName());
      continue;
    }
    const paramName = declaration.getName();
    seen.add(paramName);
    let parsed: ParsedParam;
    try {
      parsed = chain.parse(toInput(declaration));
    } catch (error) {
      if (!(error instanceof SchemaError)) throw error;
      report(error, paramName);
      continue;
    }
    const paramBounds = bounds.get(paramName);
    if (paramBounds && !isNumeric(parsed)) {
      report(new SchemaError('VITRINE_SCHEMA_104', paramBounds.tag, `'${paramName}' is not a number or Integer parameter, so it cannot have a minimum or maximum`), paramName);
    }
    if (parsed.kind !== 'value') {
      parameters.push({ name: paramName, kind: parsed.kind });
      const already = parsed.kind === 'reporter' ? reporterParameter : signalParameter;
      if (already !== null) {
        report(new SchemaError('VITRINE_SCHEMA_107', declaration, `'${already}' already receives the ${parsed.kind === 'reporter' ? 'ProgressReporter' : 'AbortSignal'}`), paramName);
      } else if (parsed.kind === 'reporter') reporterParameter = paramName;
      else signalParameter = paramName;
      continue;
    }
    parameters.push({ name: paramName, kind: 'value' });
    const initializer = declaration.getInitializer();
    let defaultValue: DefaultValue | undefined;
    if (initializer) {
      try {
        defaultValue = readDefault(initializer, paramName);
        const mismatch = defaultMismatch(parsed.schema, defaultValue) ?? (isNumeric(parsed) ? outOfBounds(defaultValue, paramBounds) : undefined);
        if (mismatch !== undefined) {
          const code = defaultMismatch(parsed.schema, defaultValue) !== undefined ? 'VITRINE_SCHEMA_102' : 'VITRINE_SCHEMA_103';
          report(new SchemaError(code, initializer, `default ${JSON.stringify(defaultValue)} of '${paramName}' ${mismatch}`), paramName);
        }
      } catch (error) {
        if (!(error instanceof SchemaError)) throw error;
        report(error, paramName);
      }
    }
    const optional = parsed.optional || declaration.hasQuestionToken() || initializer !== undefined;
    if (!optional) required.push(paramName);
    properties[paramName] = toProperty(parsed.schema, doc.params.get(paramName), defaultValue, isNumeric(parsed) ? paramBounds : undefined);
  }
  for (const [boundName, bound] of bounds) {
    if (!seen.has(boundName)) {
      report(new SchemaError('VITRINE_SCHEMA_105', bound.tag, `bound tag names '${boundName}', which is not a parameter of ${name}`, boundName));
    }
  }

  const schema: Record<string, unknown> = { $schema: SCHEMA_DIALECT, title: name };
  if (doc.summary !== undefined) schema['description'] = doc.summary;
  schema['type'] = 'object';
  schema['properties'] = properties;
  if (required.length > 0) schema['required'] = required;
  return { parameters, reporterParameter, signalParameter, schema };
}

function toInput(declaration: ParameterDeclaration) {
  const type = declaration.getType();
  return {
    declaration,
    members: type.isUnion() ? type.getUnionTypes() : [type],
    typeNode: declaration.getTypeNode(),
    optional: declaration.hasQuestionToken(),
  };
}
