/**
 * @module evaluate-string
 * Folds a constant string expression written in a specimen declaration: string literals,
 * templates, `+` concatenation (with number literals too), and references to `const`
 * bindings holding such expressions (also imported ones). Anything else is not constant.
 */
import { Node } from 'ts-morph';

const MAX_DEPTH = 16;

/** The expression inside parentheses, `as` and `satisfies`. */
export function unwrap(node: Node): Node {
  let current = node;
  while (Node.isParenthesizedExpression(current) || Node.isAsExpression(current) || Node.isSatisfiesExpression(current)) {
    current = current.getExpression();
  }
  return current;
}

function evaluate(node: Node, depth: number): string | number | undefined {
  if (depth > MAX_DEPTH) return undefined;
  const value = unwrap(node);
  if (Node.isStringLiteral(value) || Node.isNoSubstitutionTemplateLiteral(value)) return value.getLiteralValue();
  if (Node.isNumericLiteral(value)) return value.getLiteralValue();
  if (Node.isTemplateExpression(value)) {
    let text = value.getHead().getLiteralText();
    for (const span of value.getTemplateSpans()) {
      const part = evaluate(span.getExpression(), depth + 1);
      if (part === undefined) return undefined;
      text += String(part) + span.getLiteral().getLiteralText();
    }
    return text;
  }
  if (Node.isBinaryExpression(value) && value.getOperatorToken().getText() === '+') {
    const left = evaluate(value.getLeft(), depth + 1);
    const right = evaluate(value.getRight(), depth + 1);
    if (left === undefined || right === undefined) return undefined;
    if (typeof left === 'number' && typeof right === 'number') return left + right;
    return String(left) + String(right);
  }
  if (Node.isIdentifier(value)) {
    const symbol = value.getSymbol();
    const resolved = symbol?.isAlias() ? symbol.getAliasedSymbol() : symbol;
    for (const declaration of resolved?.getDeclarations() ?? []) {
      if (!Node.isVariableDeclaration(declaration) || !declaration.getVariableStatement()?.getDeclarationKind().includes('const')) continue;
      const initializer = declaration.getInitializer();
      if (initializer) return evaluate(initializer, depth + 1);
    }
  }
  return undefined;
}

/** The constant string `node` stands for, or undefined. */
export function evaluateString(node: Node): string | undefined {
  const value = evaluate(node, 0);
  return typeof value === 'string' ? value : undefined;
}
