/**
 * @module find-exported-functions
 * The functions a plugin entry exports, by export name: function declarations, and `const`
 * bindings initialised with an arrow function or function expression. Re-exports
 * (`export { torus } from './torus.ts'`) count too.
 */
import { Node, type JSDoc, type SourceFile } from 'ts-morph';
import type { FunctionNode } from '../schema/generate-schema.ts';
import { unwrap } from '../specimens/evaluate-string.ts';

export interface ExportedFunction {
  /** The export name (the registered function name). */
  name: string;
  node: FunctionNode;
  /** The doc comments that describe it. */
  docs: JSDoc[];
}

function asExportedFunction(name: string, declaration: Node): ExportedFunction | undefined {
  if (Node.isFunctionDeclaration(declaration)) {
    // An overloaded function: use the implementation's signature when exported as one.
    const implementation = declaration.getImplementation() ?? declaration;
    return { name, node: implementation, docs: declaration.getJsDocs() };
  }
  if (Node.isVariableDeclaration(declaration)) {
    const initializer = declaration.getInitializer();
    if (!initializer) return undefined;
    const value = unwrap(initializer);
    if (!Node.isArrowFunction(value) && !Node.isFunctionExpression(value)) return undefined;
    return { name, node: value, docs: declaration.getVariableStatement()?.getJsDocs() ?? [] };
  }
  return undefined;
}

/** Source order: the entry's own declarations first, then re-exported ones by file. */
function compareOrder(entry: SourceFile): (a: ExportedFunction, b: ExportedFunction) => number {
  const key = (fn: ExportedFunction): [number, string, number] => {
    const file = fn.node.getSourceFile();
    return [file === entry ? 0 : 1, file.getFilePath(), fn.node.getStart()];
  };
  return (a, b) => {
    const [ka, kb] = [key(a), key(b)];
    return ka[0] - kb[0] || (ka[1] < kb[1] ? -1 : ka[1] > kb[1] ? 1 : 0) || ka[2] - kb[2];
  };
}

/** The exported functions of `sourceFile` in source order. */
export function findExportedFunctions(sourceFile: SourceFile): ExportedFunction[] {
  const found: ExportedFunction[] = [];
  for (const [name, declarations] of sourceFile.getExportedDeclarations()) {
    const first = declarations.map((declaration) => asExportedFunction(name, declaration)).find((fn) => fn !== undefined);
    if (first) found.push(first);
  }
  return found.sort(compareOrder(sourceFile));
}
