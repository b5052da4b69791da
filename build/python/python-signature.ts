/**
 * @module python-signature
 * One Python function's parameters → its manifest parameter list and JSON Schema, the twin of
 * build/schema/generate-schema.ts: value parameters become properties in order, the
 * ProgressReporter is only recorded, defaults come from the signature, descriptions from the
 * docstring, bounds and item counts from `Annotated`. The property and schema shapes, the
 * constraint placement and the default checks are the TypeScript side's own functions, so the
 * two languages cannot drift. Every problem becomes a diagnostic; generation goes on.
 */
import type { ManifestParameter } from '../../core/registry/manifest-types.ts';
import { createDiagnostic, type BuildDiagnostic, type DiagnosticSubject } from '../diagnostics/build-diagnostic.ts';
import { applyConstraints, withBounds } from '../schema/apply-constraints.ts';
import { defaultMismatch } from '../schema/default-mismatch.ts';
import type { GeneratedSignature } from '../schema/generate-schema.ts';
import type { JsonValue } from '../schema/param-parser.ts';
import { SchemaError } from '../schema/schema-error.ts';
import { toFunctionSchema, toProperty } from '../schema/schema-object.ts';
import type { PyAnnotationChain, PyBounds, PyParsed } from './annotations/annotation-parser.ts';
import { floatForInteger, readPythonDefault } from './python-defaults.ts';
import { isNone, locationIn, type PyScope } from './python-names.ts';
import type { PyFunction, PyParameter } from './reader-output.ts';
import { readDocstring } from './read-docstring.ts';

const INPUT_USAGE = 'is not an input reference; write {"specimen": "id"} or {"specimen": "id", "params": {...}}';

/** Why a parameter has no schema property at all, or undefined when it can have one. */
function shapeProblem(param: PyParameter, scope: PyScope): SchemaError | undefined {
  const at = locationIn(scope, param);
  if (param.kind === 'var_positional' || param.kind === 'var_keyword') {
    const written = `${param.kind === 'var_positional' ? '*' : '**'}${param.name}`;
    return new SchemaError('VITRINE_SCHEMA_106', at, `\`${written}\` is a rest parameter; declare one named parameter per schema property`);
  }
  if (param.kind === 'positional_only') {
    return new SchemaError(
      'VITRINE_SCHEMA_109',
      at,
      `'${param.name}' is positional-only (it comes before \`/\`); the host passes parameters by name, so declare it after the \`/\``,
    );
  }
  if (param.annotation === null) {
    return new SchemaError('VITRINE_SCHEMA_100', at, `parameter '${param.name}' has no annotation; use an annotation such as \`${param.name}: float\``);
  }
  return undefined;
}

/** The default written into the schema (undefined for none), checked against the fragment and a scalar's bounds. */
function valueDefault(
  param: PyParameter,
  parsed: PyParsed & { parsed: { kind: 'value' } },
  fragment: Record<string, unknown>,
  scalarBounds: PyBounds | undefined,
  scope: PyScope,
): JsonValue | undefined {
  const written = param.default;
  if (written === null) {
    if (!parsed.parsed.optional) return undefined;
    throw new SchemaError(
      'VITRINE_SCHEMA_100',
      locationIn(scope, param.annotation!),
      `parameter '${param.name}' is optional (\`${param.annotation!.text}\`) but has no default; write \`= None\`: a client leaves it out and the ` +
      `function receives None`,
    );
  }
  // `x: T | None = None`: not required, no default in the schema.
  if (parsed.parsed.optional && isNone(written)) return undefined;
  const at = locationIn(scope, written);
  const value = readPythonDefault(written, at, param.name);
  const mismatch = floatForInteger(fragment, written)
    ? { code: 'VITRINE_SCHEMA_102' as const, text: 'is not an integer' }
    : defaultMismatch(scalarBounds ? withBounds(fragment, scalarBounds) : fragment, value);
  if (mismatch === undefined) return value;
  // The shared check words an input's usage in TypeScript; say it as Python writes it.
  const text = fragment['type'] === 'object' && mismatch.text.startsWith('is not an input reference') ? INPUT_USAGE : mismatch.text;
  throw new SchemaError(mismatch.code, at, `default ${written.text} of '${param.name}' ${text}`);
}

export function generatePythonSignature(
  fn: PyFunction,
  scope: PyScope,
  chain: PyAnnotationChain,
  subject: DiagnosticSubject,
  diagnostics: BuildDiagnostic[],
): GeneratedSignature {
  const doc = readDocstring(fn.docstring);
  const report = (error: SchemaError, parameterName: string): void => {
    diagnostics.push(createDiagnostic(error.code, error.node, error.message, { ...subject, functionName: fn.name, parameterName }));
  };
  const parameters: ManifestParameter[] = [];
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  let reporterParameter: string | null = null;

  for (const param of fn.parameters) {
    try {
      const problem = shapeProblem(param, scope);
      if (problem) throw problem;
      const parsed = chain.parse({ expr: param.annotation!, scope, parameter: param.name, optional: false });
      if (parsed.parsed.kind !== 'value') {
        parameters.push({ name: param.name, kind: 'reporter' });
        if (reporterParameter !== null)
          throw new SchemaError('VITRINE_SCHEMA_107', locationIn(scope, param), `'${reporterParameter}' already receives the ProgressReporter`);
        reporterParameter = param.name;
        continue;
      }
      const valueParsed = parsed as PyParsed & { parsed: { kind: 'value' } };
      const fragment = applyConstraints(valueParsed.parsed.schema, parsed.bounds, parsed.counts);
      // A scalar's bounds stay out of the fragment: they follow the description and default.
      const scalarBounds = fragment.type === 'number' || fragment.type === 'integer' ? parsed.bounds : undefined;
      const defaultValue = valueDefault(param, valueParsed, fragment, scalarBounds, scope);
      parameters.push({ name: param.name, kind: 'value' });
      if (!valueParsed.parsed.optional && param.default === null) required.push(param.name);
      properties[param.name] = toProperty(fragment, doc.params.get(param.name), defaultValue, scalarBounds);
    } catch (error) {
      if (!(error instanceof SchemaError)) throw error;
      report(error, param.name);
    }
  }
  // A documented parameter the function no longer takes (renamed or removed): warned, at the function.
  const taken = new Set(fn.parameters.map((param) => param.name));
  const warnings = [...doc.params.keys()]
    .filter((name) => !taken.has(name))
    .map((name) => ({
      ...createDiagnostic('VITRINE_SCHEMA_110', locationIn(scope, fn), `the docstring documents '${name}', no parameter of ${fn.name}: rename or remove it`, {
        ...subject,
        functionName: fn.name,
        parameterName: name,
      }),
      severity: 'warning' as const,
    }));
  return { parameters, reporterParameter, signalParameter: null, schema: toFunctionSchema(fn.name, doc.summary, properties, required), warnings };
}
