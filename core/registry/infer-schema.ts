/**
 * @module infer-schema
 * A schema for a function registered in code without one. At run time there are no type
 * annotations, so the parameters are read from the function's source text: a literal default
 * gives the type (`radius = 1.5` → number, `mode = 'fast'` → string, `smooth = true` →
 * boolean) and the default; an array literal of such literals gives an array of their common
 * type (`levels = [0.25, 0.5]` → an array of numbers, of any length: JavaScript cannot tell a
 * tuple from a list); a parameter with no default is required and unconstrained.
 * Parameters named `progress`/`reporter` receive the ProgressReporter, `signal` the
 * AbortSignal. Pass an explicit schema to `registerFunction` for anything richer.
 * TypeScript's parser loads on the first such registration, so a host that registers no
 * function in code (`vitrine serve`) never loads it.
 */
import { createRequire } from 'node:module';
import type { ts as TS } from 'ts-morph';
import type { ManifestParameter } from './manifest-types.ts';

let loaded: typeof TS | undefined;

function typescript(): typeof TS {
  loaded ??= (createRequire(import.meta.url)('ts-morph') as typeof import('ts-morph')).ts;
  return loaded;
}

const REPORTER_NAMES = new Set(['progress', 'reporter', 'onProgress']);
const SIGNAL_NAMES = new Set(['signal', 'abortSignal']);

function literalOf(node: TS.Expression): { type: string; value: unknown } | null {
  const ts = typescript();
  if (ts.isNumericLiteral(node)) return { type: 'number', value: Number(node.text) };
  if (ts.isPrefixUnaryExpression(node) && node.operator === ts.SyntaxKind.MinusToken && ts.isNumericLiteral(node.operand)) {
    return { type: 'number', value: -Number(node.operand.text) };
  }
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return { type: 'string', value: node.text };
  if (node.kind === ts.SyntaxKind.TrueKeyword) return { type: 'boolean', value: true };
  if (node.kind === ts.SyntaxKind.FalseKeyword) return { type: 'boolean', value: false };
  return null;
}

const SCALAR_TYPES = new Set(['number', 'string', 'boolean']);

/** The property schema a literal default gives, or null when it is not a literal. */
function propertyOf(node: TS.Expression): Record<string, unknown> | null {
  const ts = typescript();
  if (!ts.isArrayLiteralExpression(node)) {
    const literal = literalOf(node);
    return literal && { type: literal.type, default: literal.value };
  }
  const items = node.elements.map((element) => literalOf(element));
  if (items.some((item) => item === null)) return null;
  const types = new Set(items.map((item) => item!.type));
  const property: Record<string, unknown> = { type: 'array' };
  if (types.size === 1 && SCALAR_TYPES.has([...types][0]!)) property['items'] = { type: [...types][0] };
  property['default'] = items.map((item) => item!.value);
  return property;
}

function findFunction(node: TS.Node): TS.SignatureDeclaration | undefined {
  const ts = typescript();
  if (ts.isFunctionDeclaration(node) || ts.isFunctionExpression(node) || ts.isArrowFunction(node) || ts.isMethodDeclaration(node)) return node;
  return ts.forEachChild(node, findFunction);
}

export function inferSchema(name: string, fn: (...args: never[]) => unknown): { schema: Record<string, unknown>; parameters: ManifestParameter[] } {
  const ts = typescript();
  let source = fn.toString();
  // Method shorthand (`sphere(r = 1) {}`) is not an expression on its own.
  if (!/^(async\s+)?(function\b|\(|[A-Za-z_$][\w$]*\s*=>)/.test(source)) source = `({ ${source} })`;
  const file = ts.createSourceFile('fn.js', `(${source});`, ts.ScriptTarget.Latest, false, ts.ScriptKind.JS);
  const decl = findFunction(file);
  const properties: Record<string, Record<string, unknown>> = {};
  const required: string[] = [];
  const parameters: ManifestParameter[] = [];
  decl?.parameters.forEach((p, i) => {
    const paramName = ts.isIdentifier(p.name) ? p.name.text : `arg${i}`;
    if (REPORTER_NAMES.has(paramName)) return parameters.push({ name: paramName, kind: 'reporter' });
    if (SIGNAL_NAMES.has(paramName)) return parameters.push({ name: paramName, kind: 'signal' });
    parameters.push({ name: paramName, kind: 'value' });
    const property = p.initializer ? propertyOf(p.initializer) : null;
    if (property) properties[paramName] = property;
    else {
      properties[paramName] = {};
      if (!p.initializer && !p.questionToken) required.push(paramName);
    }
    return undefined;
  });
  const schema: Record<string, unknown> = {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    title: name,
    type: 'object',
    properties,
  };
  if (required.length > 0) schema.required = required;
  return { schema, parameters };
}
