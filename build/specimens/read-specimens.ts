/**
 * @module read-specimens
 * Reads `export const specimens = [...]` from a plugin entry as a literal with ts-morph.
 * Reading the literal (rather than running the bundle at build time) keeps the build free of
 * plugin side effects and lets every error point at the exact property in the source. The
 * declaration must therefore be an array literal of object literals whose values are constant
 * strings (literals, templates and `+` concatenations of them, or `const` bindings holding
 * one) or arrays of them; `as const` and `satisfies` are fine.
 */
import { Node, type Expression, type SourceFile } from 'ts-morph';
import { evaluateString as stringValue, unwrap } from './evaluate-string.ts';
import { createDiagnostic, type BuildDiagnostic, type SourceLocation } from '../diagnostics/build-diagnostic.ts';
import type { SpecimenDeclaration } from '../../core/sdk/plugin-types.ts';

/** One declared specimen as written, with the nodes (or a Python plugin's locations) its fields came from. */
export interface DeclaredSpecimen extends SpecimenDeclaration {
  node: Node | SourceLocation;
  /** The node of each field, for error locations. */
  fieldNodes: Map<string, Node | SourceLocation>;
}

export const STRING_FIELDS = ['id', 'function', 'display_name', 'description', 'thumbnail', 'story', 'color'] as const;
const REQUIRED_FIELDS = ['id', 'function', 'display_name'] as const;

/** The message of a field the declaration does not know. */
export function unknownFieldMessage(name: string): string {
  return `unknown specimen field \`${name}\` (known: ${[...STRING_FIELDS, 'tags'].join(', ')})`;
}

/**
 * The specimen once its fields are read (in either language): undefined when a field was
 * invalid, or when a required one is missing (`missing` is told each such field).
 */
export function completeSpecimen(
  fields: Record<string, unknown>,
  fieldNodes: DeclaredSpecimen['fieldNodes'],
  node: DeclaredSpecimen['node'],
  valid: boolean,
  missing: (message: string) => void,
): DeclaredSpecimen | undefined {
  let complete = valid;
  for (const required of REQUIRED_FIELDS) {
    if (fields[required] === undefined && !fieldNodes.has(required)) {
      missing(`specimen is missing the required field \`${required}\``);
      complete = false;
    }
  }
  return complete ? { ...(fields as Omit<DeclaredSpecimen, 'node' | 'fieldNodes'>), node, fieldNodes } : undefined;
}

/** The code shown in a message, shortened. */
function excerpt(node: Node): string {
  const text = node.getText().replace(/\s+/g, ' ');
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

function propertyName(property: Node): string | undefined {
  if (!Node.isPropertyAssignment(property)) return undefined;
  const nameNode = property.getNameNode();
  if (Node.isIdentifier(nameNode)) return nameNode.getText();
  if (Node.isStringLiteral(nameNode)) return nameNode.getLiteralValue();
  return undefined;
}

/** The declared specimens of `sourceFile` (empty when it exports none). */
export function readSpecimens(sourceFile: SourceFile, plugin: string, diagnostics: BuildDiagnostic[]): DeclaredSpecimen[] {
  const declaration = sourceFile.getExportedDeclarations().get('specimens')?.[0];
  if (!declaration) return [];
  const fail = (node: Node, message: string, code: 'VITRINE_SPECIMEN_300' | 'VITRINE_SPECIMEN_306' = 'VITRINE_SPECIMEN_300'): void => {
    diagnostics.push(createDiagnostic(code, node, message, { plugin }));
  };
  const initializer: Expression | undefined = Node.isVariableDeclaration(declaration) ? declaration.getInitializer() : undefined;
  const array = initializer ? unwrap(initializer) : undefined;
  if (!array || !Node.isArrayLiteralExpression(array)) {
    fail(declaration, '`specimens` must be declared as `export const specimens: SpecimenDeclaration[] = [ { ... } ]` with an array literal');
    return [];
  }
  const specimens: DeclaredSpecimen[] = [];
  for (const element of array.getElements()) {
    const object = unwrap(element);
    if (!Node.isObjectLiteralExpression(object)) {
      fail(element, 'each entry of `specimens` must be an object literal');
      continue;
    }
    const fields: Record<string, unknown> = {};
    const fieldNodes = new Map<string, Node>();
    let valid = true;
    for (const property of object.getProperties()) {
      const name = propertyName(property);
      if (name === undefined || !Node.isPropertyAssignment(property)) {
        fail(property, `\`${excerpt(property)}\` is not a plain \`name: value\` property`);
        valid = false;
        continue;
      }
      const valueNode = property.getInitializerOrThrow();
      fieldNodes.set(name, valueNode);
      if ((STRING_FIELDS as readonly string[]).includes(name)) {
        const value = stringValue(valueNode);
        if (value === undefined) {
          fail(valueNode, `\`${name}\` must be a constant string, got \`${excerpt(valueNode)}\``);
          valid = false;
        } else fields[name] = value;
      } else if (name === 'tags') {
        const tags = unwrap(valueNode);
        const values = Node.isArrayLiteralExpression(tags) ? tags.getElements().map(stringValue) : undefined;
        if (!values || values.some((value) => value === undefined)) {
          fail(valueNode, `\`tags\` must be an array of constant strings, got \`${excerpt(valueNode)}\``);
          valid = false;
        } else fields['tags'] = values;
      } else {
        fail(property, unknownFieldMessage(name), 'VITRINE_SPECIMEN_306');
        valid = false;
      }
    }
    const specimen = completeSpecimen(fields, fieldNodes, object, valid, (message) => fail(object, message, 'VITRINE_SPECIMEN_306'));
    if (specimen) specimens.push(specimen);
  }
  return specimens;
}
