/**
 * @module read-default
 * A parameter's initializer as a JSON default. Only literals are accepted (numbers, also
 * negative, strings, booleans, array literals of those, and for inputs an object literal
 * `{ specimen: 'id', params: {...} }` or the SDK call `specimenInput('id', {...})`), because
 * the schema is written at build time and the value must be the one the function really uses.
 */
import { Node, SyntaxKind, type CallExpression, type Expression } from 'ts-morph';
import { isSdkFile } from '../project/sdk-paths.ts';
import type { JsonValue } from './param-parser.ts';
import { SchemaError } from './schema-error.ts';
import { resolveAlias } from './type-queries.ts';

/** Strips parentheses (harmless wrapping); casts are not unwrapped: defaults need none. */
function unwrap(expression: Expression): Expression {
  let current = expression;
  while (Node.isParenthesizedExpression(current)) current = current.getExpression();
  return current;
}

function numericValue(text: string): number {
  return Number(text.replace(/_/g, ''));
}

/** True when `expression` is a call of the SDK's `specimenInput`, however imported. */
function isSpecimenInputCall(expression: CallExpression): boolean {
  const callee = expression.getExpression();
  const identifier = Node.isPropertyAccessExpression(callee) ? callee.getNameNode() : callee;
  const symbol = resolveAlias(identifier.getSymbol());
  return symbol?.getName() === 'specimenInput' && symbol.getDeclarations().some((d) => isSdkFile(d.getSourceFile().getFilePath()));
}

function notLiteral(initializer: Expression, parameterName: string): SchemaError {
  return new SchemaError(
    'VITRINE_SCHEMA_101',
    initializer,
    `default of parameter '${parameterName}' is \`${initializer.getText()}\`; a default must be a literal number (e.g. 1.5, -2), string, boolean, ` +
      "an array literal of those, or for an input `specimenInput('id', { ... })`",
  );
}

/** Reads one literal value; `initializer` is the whole default, for the error's location. */
function readValue(node: Expression, initializer: Expression, parameterName: string): JsonValue {
  const expression = unwrap(node);
  if (Node.isNumericLiteral(expression)) return numericValue(expression.getText());
  if (Node.isPrefixUnaryExpression(expression)) {
    const operand = unwrap(expression.getOperand() as Expression);
    const operator = expression.getOperatorToken();
    if (Node.isNumericLiteral(operand) && (operator === SyntaxKind.MinusToken || operator === SyntaxKind.PlusToken)) {
      const value = numericValue(operand.getText());
      return operator === SyntaxKind.MinusToken ? -value : value;
    }
  }
  if (Node.isStringLiteral(expression) || Node.isNoSubstitutionTemplateLiteral(expression)) return expression.getLiteralValue();
  if (Node.isTrueLiteral(expression)) return true;
  if (Node.isFalseLiteral(expression)) return false;
  if (Node.isArrayLiteralExpression(expression)) {
    return expression.getElements().map((element) => {
      if (Node.isSpreadElement(element) || Node.isOmittedExpression(element)) throw notLiteral(initializer, parameterName);
      return readValue(element, initializer, parameterName);
    });
  }
  if (Node.isObjectLiteralExpression(expression)) {
    const value: Record<string, JsonValue> = {};
    for (const property of expression.getProperties()) {
      if (!Node.isPropertyAssignment(property)) throw notLiteral(initializer, parameterName);
      const name = property.getNameNode();
      if (!Node.isIdentifier(name) && !Node.isStringLiteral(name)) throw notLiteral(initializer, parameterName);
      value[Node.isStringLiteral(name) ? name.getLiteralValue() : name.getText()] = readValue(property.getInitializerOrThrow(), initializer, parameterName);
    }
    return value;
  }
  if (Node.isCallExpression(expression) && isSpecimenInputCall(expression)) {
    const [id, params, ...rest] = expression.getArguments() as Expression[];
    if (id === undefined || rest.length > 0) throw notLiteral(initializer, parameterName);
    const reference: Record<string, JsonValue> = { specimen: readValue(id, initializer, parameterName) };
    if (params !== undefined) reference['params'] = readValue(params, initializer, parameterName);
    return reference;
  }
  throw notLiteral(initializer, parameterName);
}

/**
 * The literal value of `initializer`; throws VITRINE_SCHEMA_101 for anything else
 * (`Math.PI`, `foo()`, `a + b`, a template with substitutions, `1 as Integer`, `[...xs]`).
 */
export function readDefault(initializer: Expression, parameterName: string): JsonValue {
  return readValue(initializer, initializer, parameterName);
}
