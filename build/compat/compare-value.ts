/**
 * @module compare-value
 * Compares the values one parameter accepted before with those it accepts now. Within one kind
 * (scalar, enum, tuple, list, input) every difference is its own finding: an enum value
 * removed, a bound raised, an item count lowered. Across kinds the question is only whether
 * every old value is still accepted (widened), every new value was accepted before (narrowed),
 * or neither (changed).
 */
import { classOf, type ChangeKind, type Finding } from './compat-change.ts';
import { labelOf, showValue, type Language, type ValueShape } from './value-shape.ts';

type Scalar = Extract<ValueShape, { kind: 'scalar' }>;
type List = Extract<ValueShape, { kind: 'array' }>;

const finding = (kind: ChangeKind, what: string): Finding => ({ kind, what });

/**
 * A lower limit (a minimum, a minItems) moving: `raise` is the kind when it goes up (or
 * appears), `lower` when it goes down (or goes away). An upper limit passes its kinds swapped
 * and `upper` true, since for it going down is the tightening.
 */
function compareLimit(
  name: string,
  before: number | undefined,
  after: number | undefined,
  subject: string,
  kinds: { tighten: ChangeKind; loosen: ChangeKind },
  upper: boolean,
): Finding[] {
  if (before === after) return [];
  if (before === undefined) return [finding(kinds.tighten, `${name} ${after} added to ${subject}`)];
  if (after === undefined) return [finding(kinds.loosen, `${name} of ${subject} removed (was ${before})`)];
  const tighter = upper ? after < before : after > before;
  const verb = after > before ? 'raised' : 'lowered';
  return [finding(tighter ? kinds.tighten : kinds.loosen, `${name} of ${subject} ${verb} from ${before} to ${after}`)];
}

function compareBounds(before: Scalar | List, after: Scalar | List, subject: string): Finding[] {
  if (before.kind === 'scalar' && after.kind === 'scalar') {
    return [
      ...compareLimit('minimum', before.minimum, after.minimum, subject, { tighten: 'minimum-raised', loosen: 'minimum-lowered' }, false),
      ...compareLimit('maximum', before.maximum, after.maximum, subject, { tighten: 'maximum-lowered', loosen: 'maximum-raised' }, true),
    ];
  }
  if (before.kind === 'array' && after.kind === 'array') {
    return [
      ...compareLimit('minItems', before.minItems, after.minItems, subject, { tighten: 'min-items-raised', loosen: 'min-items-lowered' }, false),
      ...compareLimit('maxItems', before.maxItems, after.maxItems, subject, { tighten: 'max-items-lowered', loosen: 'max-items-raised' }, true),
    ];
  }
  return [];
}

function compareScalars(before: Scalar, after: Scalar, subject: string, language: Language): Finding[] {
  const from = labelOf(before, language);
  const to = labelOf(after, language);
  let kind: ChangeKind | null = null;
  if (before.type !== after.type) {
    if (before.type === 'integer' && after.type === 'number') kind = 'type-widened';
    else if (before.type === 'number' && after.type === 'integer') kind = 'type-narrowed';
    else return [finding('type-changed', `type of ${subject} changed from ${from} to ${to}`)];
  } else if (before.color !== after.color) kind = after.color ? 'type-narrowed' : 'type-widened';
  const typeFinding = kind ? [finding(kind, `type of ${subject} ${kind === 'type-widened' ? 'widened' : 'narrowed'} from ${from} to ${to}`)] : [];
  return [...typeFinding, ...compareBounds(before, after, subject)];
}

function compareEnums(before: (string | number)[], after: (string | number)[], subject: string): Finding[] {
  return [
    ...before.filter((value) => !after.includes(value)).map((value) => finding('enum-value-removed', `value ${showValue(value)} of ${subject} removed`)),
    ...after.filter((value) => !before.includes(value)).map((value) => finding('enum-value-added', `value ${showValue(value)} of ${subject} added`)),
  ];
}

/**
 * Tuples item by item; a bound written once for every item (`@range axis -1 1`) that changed
 * the same way on each is one change, not one per item.
 */
function compareTuples(before: ValueShape[], after: ValueShape[], subject: string, language: Language): Finding[] {
  const each = before.map((item, index) => compareValues(item, after[index]!, `each item of ${subject}`, language));
  const first = JSON.stringify(each[0]);
  if (each.length > 1 && each.every((findings) => JSON.stringify(findings) === first)) return each[0]!;
  return before.flatMap((item, index) => compareValues(item, after[index]!, `item ${index} of ${subject}`, language));
}

function sameKind(before: ValueShape, after: ValueShape, subject: string, language: Language): Finding[] {
  if (before.kind === 'scalar' && after.kind === 'scalar') return compareScalars(before, after, subject, language);
  if (before.kind === 'enum' && after.kind === 'enum') return compareEnums(before.values, after.values, subject);
  if (before.kind === 'array' && after.kind === 'array') {
    return [...compareValues(before.items, after.items, `the items of ${subject}`, language), ...compareBounds(before, after, subject)];
  }
  if (before.kind === 'tuple' && after.kind === 'tuple' && before.items.length === after.items.length) {
    return compareTuples(before.items, after.items, subject, language);
  }
  if (before.kind === 'input' && after.kind === 'input' && before.input === after.input) return [];
  if (before.kind === 'other' && after.kind === 'other' && JSON.stringify(before.schema) === JSON.stringify(after.schema)) return [];
  return [finding('type-changed', `type of ${subject} changed from ${labelOf(before, language)} to ${labelOf(after, language)}`)];
}

/** Whether scalar `shape` accepts `value`. */
function scalarAccepts(shape: Scalar, value: string | number): boolean {
  if (shape.type === 'string') return typeof value === 'string' && (!shape.color || /^#[0-9a-fA-F]{6}$/.test(value));
  if (typeof value !== 'number' || shape.type === 'boolean') return false;
  if (shape.type === 'integer' && !Number.isInteger(value)) return false;
  return (shape.minimum === undefined || value >= shape.minimum) && (shape.maximum === undefined || value <= shape.maximum);
}

/** Whether every value `inner` accepts is accepted by `outer`. */
export function valueFits(inner: ValueShape, outer: ValueShape): boolean {
  if (inner.kind === outer.kind) return !compareValues(inner, outer, '', 'node').some((change) => classOf(change.kind) === 'breaking');
  if (inner.kind === 'enum' && outer.kind === 'scalar') return inner.values.every((value) => scalarAccepts(outer, value));
  if (inner.kind === 'tuple' && outer.kind === 'array') {
    const n = inner.items.length;
    return (outer.minItems ?? 0) <= n && n <= (outer.maxItems ?? Infinity) && inner.items.every((item) => valueFits(item, outer.items));
  }
  return false;
}

/** Every difference between what `subject` accepted (`before`) and accepts now (`after`). */
export function compareValues(before: ValueShape, after: ValueShape, subject: string, language: Language): Finding[] {
  if (before.kind === after.kind) return sameKind(before, after, subject, language);
  const from = labelOf(before, language);
  const to = labelOf(after, language);
  if (valueFits(before, after)) return [finding('type-widened', `type of ${subject} widened from ${from} to ${to}`)];
  if (valueFits(after, before)) return [finding('type-narrowed', `type of ${subject} narrowed from ${from} to ${to}`)];
  return [finding('type-changed', `type of ${subject} changed from ${from} to ${to}`)];
}
