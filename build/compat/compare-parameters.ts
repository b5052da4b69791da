/**
 * @module compare-parameters
 * Compares the value parameters of one function in two builds: removed, renamed and added
 * parameters, a parameter that became required or optional, a default that changed, and (via
 * compare-value.ts) what each accepts. Parameters are matched by name, since a request names
 * them; a removed one and an added one are a rename when they accept the same values (or when
 * they are the only ones and sit at the same place).
 */
import type { ManifestFunction } from '../../core/registry/manifest-types.ts';
import { stableJson } from '../../core/wire/stable-json.ts';
import type { ChangeKind, Finding } from './compat-change.ts';
import { compareValues } from './compare-value.ts';
import { showValue, toValueShape, type Language } from './value-shape.ts';

type Property = Record<string, unknown>;

interface Parameter {
  name: string;
  index: number;
  property: Property;
  required: boolean;
}

/** The value parameters of `fn`, in order. */
export function valueParameters(fn: ManifestFunction): Parameter[] {
  const properties = (fn.schema['properties'] ?? {}) as Record<string, Property>;
  const required = new Set((fn.schema['required'] ?? []) as string[]);
  return Object.entries(properties).map(([name, property], index) => ({ name, index, property, required: required.has(name) }));
}

/** What a parameter accepts, description left out: two parameters with the same are one renamed. */
export function parameterSignature(parameter: Parameter): string {
  const { description: _description, ...rest } = parameter.property;
  return stableJson({ ...rest, required: parameter.required });
}

/** Pairs each removed item with the added one of the same signature, when only one has it (each added item pairs once). */
export function pairBySignature<T>(removed: T[], added: T[], signatureOf: (item: T) => string): Map<T, T> {
  const renames = new Map<T, T>();
  const taken = new Set<T>();
  for (const before of removed) {
    const same = added.filter((after) => !taken.has(after) && signatureOf(after) === signatureOf(before));
    if (same.length === 1) {
      renames.set(before, same[0]!);
      taken.add(same[0]!);
    }
  }
  return renames;
}

/** Pairs each removed parameter with the added one it was renamed to, when that is clear. */
function findRenames(removed: Parameter[], added: Parameter[]): Map<Parameter, Parameter> {
  const renames = pairBySignature(removed, added, parameterSignature);
  const [onlyRemoved] = removed;
  const [onlyAdded] = added;
  if (renames.size === 0 && removed.length === 1 && added.length === 1 && onlyRemoved!.index === onlyAdded!.index) renames.set(onlyRemoved!, onlyAdded!);
  return renames;
}

const has = (property: Property, key: string): boolean => Object.prototype.hasOwnProperty.call(property, key);

/** Required, default and default value: what a request that leaves the parameter out gets. */
function compareOmission(before: Parameter, after: Parameter, subject: string): Finding[] {
  const hadDefault = has(before.property, 'default');
  const hasDefault = has(after.property, 'default');
  const was = showValue(before.property['default']);
  const now = showValue(after.property['default']);
  const one = (kind: ChangeKind, what: string): Finding[] => [{ kind, what }];
  if (!before.required && after.required) {
    return one('parameter-now-required', `${subject} is now required${hadDefault ? ` (its default ${was} removed)` : ''}`);
  }
  if (before.required && !after.required) {
    return one('parameter-now-optional', `${subject} is now optional${hasDefault ? ` (default ${now})` : ''}`);
  }
  if (after.required) return [];
  if (hadDefault && hasDefault) {
    return stableJson(before.property['default']) === stableJson(after.property['default'])
      ? []
      : one('default-changed', `default of ${subject} changed from ${was} to ${now}`);
  }
  if (hadDefault) return one('default-removed', `default ${was} of ${subject} removed: leaving it out now passes no value`);
  if (hasDefault) return one('default-added', `default ${now} added to ${subject}: leaving it out passed no value before`);
  return [];
}

function compareParameter(before: Parameter, after: Parameter, fn: string, language: Language): Finding[] {
  const subject = `'${after.name}' of '${fn}'`;
  return [
    ...compareValues(toValueShape(before.property), toValueShape(after.property), subject, language),
    ...compareOmission(before, after, subject),
  ];
}

/** Every change to the value parameters of function `after.name` (called `before.name` before). */
export function compareParameters(before: ManifestFunction, after: ManifestFunction, language: Language): Finding[] {
  const fn = after.name;
  const old = valueParameters(before);
  const now = valueParameters(after);
  const oldNames = new Set(old.map((p) => p.name));
  const nowNames = new Set(now.map((p) => p.name));
  const removed = old.filter((p) => !nowNames.has(p.name));
  const added = now.filter((p) => !oldNames.has(p.name));
  const renames = findRenames(removed, added);
  const renamedTo = new Set(renames.values());
  const findings: Finding[] = [];
  for (const p of removed) {
    const to = renames.get(p);
    if (!to) findings.push({ kind: 'parameter-removed', what: `parameter '${p.name}' of '${fn}' removed`, parameter: p.name });
    else {
      findings.push({ kind: 'parameter-renamed', what: `parameter '${p.name}' of '${fn}' renamed to '${to.name}'`, parameter: to.name });
      findings.push(...compareParameter(p, to, fn, language).map((f) => ({ ...f, parameter: to.name })));
    }
  }
  for (const p of now) {
    const before = old.find((o) => o.name === p.name);
    if (before) findings.push(...compareParameter(before, p, fn, language).map((f) => ({ ...f, parameter: p.name })));
    else if (!renamedTo.has(p)) findings.push(addedFinding(p, fn));
  }
  return findings;
}

function addedFinding(p: Parameter, fn: string): Finding {
  if (p.required) return { kind: 'parameter-added-required', what: `new required parameter '${p.name}' of '${fn}'`, parameter: p.name };
  const what = has(p.property, 'default')
    ? `new parameter '${p.name}' of '${fn}' with default ${showValue(p.property['default'])}`
    : `new optional parameter '${p.name}' of '${fn}'`;
  return { kind: 'parameter-added-optional', what, parameter: p.name };
}
