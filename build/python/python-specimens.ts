/**
 * @module python-specimens
 * Reads `specimens = [{"id": ..., "function": ..., "display_name": ...}]` from a Python
 * plugin's module without running it, the twin of build/specimens/read-specimens.ts: a list
 * (or tuple) literal of dict literals whose values are constant strings (literals, `+` of
 * them, or module-level names assigned one) and `tags` a list of them. The result is the
 * TypeScript side's DeclaredSpecimen, so ids, functions and thumbnails are checked by the same
 * code for both languages.
 */
import { createDiagnostic, type BuildDiagnostic, type SourceLocation } from '../diagnostics/build-diagnostic.ts';
import { completeSpecimen, STRING_FIELDS, unknownFieldMessage, type DeclaredSpecimen } from '../specimens/read-specimens.ts';
import { locationIn, type PyScope } from './python-names.ts';
import type { PyExpr, PyModule } from './reader-output.ts';

/** Names refer to names at most this deep (`A = B`, `B = "x"`); deeper is no constant. */
const MAX_DEPTH = 8;

/** The constant string `expr` stands for, or undefined. */
function stringValue(expr: PyExpr, constants: PyModule['constants'], depth = 0): string | undefined {
  if (depth > MAX_DEPTH) return undefined;
  if (expr.kind === 'constant') return typeof expr.value === 'string' ? expr.value : undefined;
  if (expr.kind === 'name') {
    const bound = Object.hasOwn(constants, expr.name) ? constants[expr.name] : undefined;
    return bound && stringValue(bound, constants, depth + 1);
  }
  if (expr.kind === 'binop' && expr.op === '+') {
    const [left, right] = [stringValue(expr.left, constants, depth + 1), stringValue(expr.right, constants, depth + 1)];
    return left !== undefined && right !== undefined ? left + right : undefined;
  }
  return undefined;
}

const excerpt = (expr: PyExpr): string => (expr.text.length > 60 ? `${expr.text.slice(0, 57)}...` : expr.text);

/** The declared specimens of `module` (empty when it declares none). */
export function readPythonSpecimens(module: PyModule, scope: PyScope, plugin: string, diagnostics: BuildDiagnostic[]): DeclaredSpecimen[] {
  const declaration = module.specimens;
  if (!declaration) return [];
  const fail = (at: SourceLocation, message: string, code: 'VITRINE_SPECIMEN_300' | 'VITRINE_SPECIMEN_306' = 'VITRINE_SPECIMEN_300'): void => {
    diagnostics.push(createDiagnostic(code, at, message, { plugin }));
  };
  const list = declaration.value;
  if (list.kind !== 'sequence') {
    fail(locationIn(scope, declaration), '`specimens` must be a list literal of dicts: `specimens = [{"id": ..., "function": ..., "display_name": ...}]`');
    return [];
  }
  const specimens: DeclaredSpecimen[] = [];
  for (const element of list.items) {
    const at = locationIn(scope, element);
    if (element.kind !== 'mapping') {
      fail(at, 'each entry of `specimens` must be a dict literal');
      continue;
    }
    const fields: Record<string, unknown> = {};
    const fieldNodes = new Map<string, SourceLocation>();
    let valid = true;
    for (const { key, value } of element.entries) {
      if (key.kind !== 'constant' || typeof key.value !== 'string') {
        fail(locationIn(scope, key), `\`${excerpt(key)}\` is not a plain "name": value entry`);
        valid = false;
        continue;
      }
      const name = key.value;
      fieldNodes.set(name, locationIn(scope, value));
      if ((STRING_FIELDS as readonly string[]).includes(name)) {
        const text = stringValue(value, module.constants);
        if (text === undefined) {
          fail(locationIn(scope, value), `\`${name}\` must be a constant string, got \`${excerpt(value)}\``);
          valid = false;
        } else fields[name] = text;
      } else if (name === 'tags') {
        const values = value.kind === 'sequence' ? value.items.map((item) => stringValue(item, module.constants)) : undefined;
        if (!values || values.some((tag) => tag === undefined)) {
          fail(locationIn(scope, value), `\`tags\` must be a list of constant strings, got \`${excerpt(value)}\``);
          valid = false;
        } else fields['tags'] = values;
      } else {
        fail(locationIn(scope, key), unknownFieldMessage(name), 'VITRINE_SPECIMEN_306');
        valid = false;
      }
    }
    const specimen = completeSpecimen(fields, fieldNodes, at, valid, (message) => fail(at, message, 'VITRINE_SPECIMEN_306'));
    if (specimen) specimens.push(specimen);
  }
  return specimens;
}
