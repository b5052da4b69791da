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
import type { JsonValue, ParamChain, ParsedParam } from './param-parser.ts';
import { acceptsBounds, acceptsItemCounts, applyConstraints, withBounds } from './apply-constraints.ts';
import { defaultMismatch } from './default-mismatch.ts';
import { readBounds, readItemCounts } from './read-bounds.ts';
import { readDefault } from './read-default.ts';
import { readDoc, type FunctionDoc } from './read-doc.ts';
import { SchemaError } from './schema-error.ts';
import { toFunctionSchema, toProperty } from './schema-object.ts';

export type FunctionNode = FunctionDeclaration | ArrowFunction | FunctionExpression;

export interface GeneratedSignature {
  parameters: ManifestParameter[];
  reporterParameter: string | null;
  signalParameter: string | null;
  schema: Record<string, unknown>;
  /** What the build reports and goes on: an `@param` naming no parameter (left out of the schema). */
  warnings: BuildDiagnostic[];
}

function isScalarNumber(parsed: ParsedParam): boolean {
  return parsed.kind === 'value' && (parsed.schema.type === 'number' || parsed.schema.type === 'integer');
}

/**
 * Generates the signature of `fn` registered as `name`. `docs` is the doc comment owner's
 * JSDoc (the function declaration, or the variable statement of an arrow function).
 */
export function generateSchema(
  fn: FunctionNode,
  name: string,
  docs: JSDoc[],
  chain: ParamChain,
  subject: DiagnosticSubject,
  diagnostics: BuildDiagnostic[],
): GeneratedSignature {
  const doc = readDoc(docs);
  const report = (error: SchemaError, parameterName = error.parameterName): void => {
    diagnostics.push(
      createDiagnostic(error.code, error.node, error.message, { ...subject, functionName: name, ...(parameterName !== undefined ? { parameterName } : {}) }),
    );
  };
  const boundErrors: SchemaError[] = [];
  const bounds = readBounds(doc.bounds, boundErrors);
  const itemCounts = readItemCounts(doc.itemCounts, boundErrors);
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
      report(
        new SchemaError('VITRINE_SCHEMA_106', declaration, `\`${declaration.getText()}\` is ${what}; declare one named parameter per schema property`),
        declaration.getName(),
      );
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
    const paramCounts = itemCounts.get(paramName);
    if (paramBounds && (parsed.kind !== 'value' || !acceptsBounds(parsed.schema))) {
      report(
        new SchemaError(
          'VITRINE_SCHEMA_104',
          paramBounds.tag,
          `'${paramName}' is not a number or Integer parameter (or a tuple or array of them), so it cannot have a minimum or maximum`,
        ),
        paramName,
      );
    }
    if (paramCounts && (parsed.kind !== 'value' || !acceptsItemCounts(parsed.schema))) {
      report(
        new SchemaError(
          'VITRINE_SCHEMA_108',
          paramCounts.tag,
          `'${paramName}' is not an array parameter of any length, so it cannot have minItems or maxItems`,
        ),
        paramName,
      );
    }
    if (parsed.kind !== 'value') {
      parameters.push({ name: paramName, kind: parsed.kind });
      const already = parsed.kind === 'reporter' ? reporterParameter : signalParameter;
      if (already !== null) {
        report(
          new SchemaError(
            'VITRINE_SCHEMA_107',
            declaration,
            `'${already}' already receives the ${parsed.kind === 'reporter' ? 'ProgressReporter' : 'AbortSignal'}`,
          ),
          paramName,
        );
      } else if (parsed.kind === 'reporter') reporterParameter = paramName;
      else signalParameter = paramName;
      continue;
    }
    parameters.push({ name: paramName, kind: 'value' });
    const fragment = applyConstraints(parsed.schema, paramBounds, paramCounts);
    const scalarBounds = isScalarNumber(parsed) ? paramBounds : undefined;
    const initializer = declaration.getInitializer();
    let defaultValue: JsonValue | undefined;
    if (initializer) {
      try {
        defaultValue = readDefault(initializer, paramName);
        const mismatch = defaultMismatch(scalarBounds ? withBounds(fragment, scalarBounds) : fragment, defaultValue);
        if (mismatch !== undefined)
          report(new SchemaError(mismatch.code, initializer, `default ${JSON.stringify(defaultValue)} of '${paramName}' ${mismatch.text}`), paramName);
      } catch (error) {
        if (!(error instanceof SchemaError)) throw error;
        report(error, paramName);
      }
    }
    const optional = parsed.optional || declaration.hasQuestionToken() || initializer !== undefined;
    if (!optional) required.push(paramName);
    properties[paramName] = toProperty(fragment, doc.params.get(paramName), defaultValue, scalarBounds);
  }
  for (const [tagged, { tag }] of [...bounds, ...itemCounts]) {
    if (!seen.has(tagged)) {
      report(new SchemaError('VITRINE_SCHEMA_105', tag, `\`@${tag.getTagName()}\` names '${tagged}', which is not a parameter of ${name}`, tagged));
    }
  }

  const warnings = staleParamTags(doc, seen, name, subject);
  return { parameters, reporterParameter, signalParameter, schema: toFunctionSchema(name, doc.summary, properties, required), warnings };
}

/** An `@param` naming no parameter of `name` (one renamed or removed, its text left behind): a warning each. */
function staleParamTags(doc: FunctionDoc, seen: Set<string>, name: string, subject: DiagnosticSubject): BuildDiagnostic[] {
  return [...doc.paramTags].flatMap(([tagged, tag]) =>
    seen.has(tagged)
      ? []
      : [
          {
            ...createDiagnostic('VITRINE_SCHEMA_110', tag, `\`@param ${tagged}\` names no parameter of ${name}: rename it or remove it`, {
              ...subject,
              functionName: name,
              parameterName: tagged,
            }),
            severity: 'warning' as const,
          },
        ],
  );
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
