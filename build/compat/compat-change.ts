/**
 * @module compat-change
 * The kinds of change between two builds of a plugin and the class each belongs to, as one
 * table the compiler checks (a new kind without a class does not compile): `breaking` (a
 * request that worked before is refused or means something else), `changes-results` (the same
 * request still works but computes something else) and `compatible` (everything that worked
 * still works and gives the same result).
 */

export type ChangeClass = 'breaking' | 'changes-results' | 'compatible';

export const CHANGE_CLASSES = {
  'function-removed': 'breaking',
  'function-renamed': 'breaking',
  'function-added': 'compatible',
  'return-type-changed': 'breaking',
  'parameter-removed': 'breaking',
  'parameter-renamed': 'breaking',
  'parameter-added-required': 'breaking',
  'parameter-added-optional': 'compatible',
  'parameter-now-required': 'breaking',
  'parameter-now-optional': 'compatible',
  'type-changed': 'breaking',
  'type-narrowed': 'breaking',
  'type-widened': 'compatible',
  'enum-value-removed': 'breaking',
  'enum-value-added': 'compatible',
  'minimum-raised': 'breaking',
  'minimum-lowered': 'compatible',
  'maximum-lowered': 'breaking',
  'maximum-raised': 'compatible',
  'min-items-raised': 'breaking',
  'min-items-lowered': 'compatible',
  'max-items-lowered': 'breaking',
  'max-items-raised': 'compatible',
  'default-changed': 'changes-results',
  'default-added': 'changes-results',
  'default-removed': 'changes-results',
} as const satisfies Record<string, ChangeClass>;

export type ChangeKind = keyof typeof CHANGE_CLASSES;

/** What a comparison of two values finds, before it is placed in a function. */
export interface Finding {
  kind: ChangeKind;
  /** One clause a person reads, naming the parameter and the function. */
  what: string;
  /** The parameter it is about (its name in the newer build), when it is about one. */
  parameter?: string;
}

/** One change of one function, placed in its plugin and source. */
export interface CompatChange {
  class: ChangeClass;
  kind: ChangeKind;
  plugin: string;
  function: string;
  parameter: string | null;
  what: string;
  /** The source file (relative to the plugin folder) and line of the function it is about. */
  source: { file: string; line: number };
}

export function classOf(kind: ChangeKind): ChangeClass {
  return CHANGE_CLASSES[kind];
}
