/**
 * @module read-default
 * A parameter's initializer as a JSON default. Only literals are accepted (numbers, also
 * negative, strings, booleans), because the schema is written at build time and the value
 * must be the one the function really uses.
 */
import { Node, SyntaxKind, type Expression } from 'ts-morph';
import { SchemaError } from './schema-error.ts';

export type DefaultValue = number | string | boolean;

/** Strips parentheses (harmless wrapping); casts are not unwrapped: defaults need none. */
function unwrap(expression: Expression): Expression {
  let current = expression;
  while (Node.isParenthesizedExpression(current)) current = current.getExpression();
  return current;
}

function numericValue(text: string): number {
  return Number(text.replace(/_/g, ''));
}

/**
 * The literal value of `initializer`; throws VITRINE_SCHEMA_101 for anything else
 * (`Math.PI`, `foo()`, `a + b`, a template with substitutions, `1 as Integer`).
 */
export function readDefault(initializer: Expression, parameterName: string): DefaultValue {
  const expression = unwrap(initializer);
  if (Node.isNumericLiteral(expression)) return numericValue(expression.getText());
  if (Node.isPrefixUnaryExpression(expression)) {
    const operand = unwrap(expression.getOperand() as Expression);
    const operator = expression.getOperatorToken();
    if (Node.isNumericLiteral(operand) && (operator === SyntaxKind.MinusToken || operator === SyntaxKind.PlusToken)) {
      const value = numericValue(operand.getText());
      return operator === SyntaxKind.MinusToken ? -value : value;
    }
  }
  if (Node.isStringLiteral(expression) || Node.isNoSubstitutionTemplateLiteral(expression)) {
    return expression.getLiteralValue();
  }
  if (Node.isTrueLiteral(expression)) return true;
  if (Node.isFalseLiteral(expression)) return false;
  throw new SchemaError(
    'VITRINE_SCHEMA_101',
    initializer,
    `default of parameter '${parameterName}' is \`${initializer.getText()}\`; a default must be a literal number (e.g. 1.5, -2), string or boolean`,
  );
}
