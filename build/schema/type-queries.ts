/**
 * @module type-queries
 * Small questions the parsers ask about types and annotations: is this member `undefined`,
 * is this the named SDK type, does this annotation name the `Integer` or `Color` marker.
 */
import { Node, type Symbol as MorphSymbol, type Type, type TypeNode } from 'ts-morph';
import { isSdkFile } from '../project/sdk-paths.ts';

/** The parameter's type when it is a single member, else undefined. */
export function single(members: Type[]): Type | undefined {
  return members.length === 1 ? members[0] : undefined;
}

/** Follows import aliases to the declared symbol. */
export function resolveAlias(symbol: MorphSymbol | undefined): MorphSymbol | undefined {
  if (symbol?.isAlias()) return symbol.getAliasedSymbol() ?? symbol;
  return symbol;
}

/** True when the type (or the alias it was written through) is called `name`. */
export function isNamedType(type: Type, name: string): boolean {
  return type.getSymbol()?.getName() === name || type.getAliasSymbol()?.getName() === name;
}

/** The annotation with parentheses removed. */
export function unwrapParens(node: TypeNode | undefined): TypeNode | undefined {
  let current = node;
  while (current && Node.isParenthesizedTypeNode(current)) current = current.getTypeNode();
  return current;
}

/**
 * True when the annotation names the SDK type alias `name` (`Integer`, `Color`), directly,
 * through an import alias (`import type { Integer as Int }`), a namespace (`vitrine.Integer`)
 * or a local alias chain (`type Count = Integer`). The type itself cannot tell: `Integer =
 * number` and `Color = string` are erased.
 */
export function namesSdkAlias(node: TypeNode | undefined, name: string, depth = 0): boolean {
  const typeNode = unwrapParens(node);
  if (!typeNode || depth > 8 || !Node.isTypeReference(typeNode)) return false;
  const typeName = typeNode.getTypeName();
  const identifier = Node.isQualifiedName(typeName) ? typeName.getRight() : typeName;
  const symbol = resolveAlias(identifier.getSymbol());
  for (const declaration of symbol?.getDeclarations() ?? []) {
    if (!Node.isTypeAliasDeclaration(declaration)) continue;
    if (declaration.getName() === name && isSdkFile(declaration.getSourceFile().getFilePath())) return true;
    if (namesSdkAlias(declaration.getTypeNode(), name, depth + 1)) return true;
  }
  return false;
}
