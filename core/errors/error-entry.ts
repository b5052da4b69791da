/**
 * @module error-entry
 * One entry of the host's error catalog (errors.ts): its HTTP status and its message template.
 */

export type Template = (...args: string[]) => string;

export interface CatalogEntry {
  status: number;
  message: Template;
}

export function entry(status: number, message: Template): CatalogEntry {
  return { status, message };
}
