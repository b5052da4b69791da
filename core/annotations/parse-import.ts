/**
 * @module parse-import
 * An annotation import (a JSON list or a CSV text) read into checked drafts, on the encode thread:
 * a room's worth of marks is megabytes of text, and reading it on the event loop would hold up
 * every other request. A refusal comes back as a value (its catalogued code and detail), so
 * the host answers it as if it had been thrown here.
 */
import type { AnnotationInput } from '../client/scene-types.ts';
import { createHostError, HostError, isHostError, type HostErrorCode } from '../errors.ts';
import { checkDrafts, isRecord } from './check-annotation.ts';
import { parseAnnotationCsv } from './parse-annotation-csv.ts';

/** Bodies up to this many characters are read where they arrive (a thread's round trip costs more). */
export const INLINE_IMPORT_CHARS = 64 * 1024;

export interface ParseImportTask {
  op: 'parseImport';
  kind: 'csv' | 'json';
  text: string;
  max: number;
}

/** The drafts read, and whether the body was one annotation (not a list): the answer differs. */
export interface ReadImport {
  drafts: AnnotationInput[];
  single: boolean;
}

export type ImportOutcome = ({ ok: true } & ReadImport) | { ok: false; code: HostErrorCode; message: string };

/** Whether a JSON body is one annotation rather than a list of them. */
export function isSingle(body: unknown): boolean {
  return !Array.isArray(body) && !(isRecord(body) && Array.isArray(body.annotations));
}

function parseJsonList(text: string, max: number): ReadImport {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (error) {
    throw createHostError('SPC_ERR_BODY_INVALID_JSON', (error as Error).message);
  }
  if (body === null) throw createHostError('SPC_ERR_BODY_NULL');
  return { drafts: checkDrafts(body, max), single: isSingle(body) };
}

/** The drafts of an import, or its refusal as a value. */
export function parseImport(task: ParseImportTask): ImportOutcome {
  try {
    const read = task.kind === 'csv' ? { drafts: parseAnnotationCsv(task.text, task.max), single: false } : parseJsonList(task.text, task.max);
    return { ok: true, ...read };
  } catch (error) {
    if (isHostError(error)) return { ok: false, code: error.code, message: error.message };
    throw error;
  }
}

/** The drafts, or the refusal thrown again where the request is answered. */
export function draftsOf(outcome: ImportOutcome): ReadImport {
  if (outcome.ok) return { drafts: outcome.drafts, single: outcome.single };
  throw new HostError(outcome.code, outcome.message);
}
