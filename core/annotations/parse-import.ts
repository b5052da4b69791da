/**
 * @module parse-import
 * An annotation import (a JSON list or a CSV text) read into checked drafts, on the encode thread:
 * a room's worth of marks is megabytes of text, and reading it on the event loop would hold up
 * every other request. A refusal comes back as a value (its catalogued code and detail), so
 * the host answers it as if it had been thrown here.
 */
import type { AnnotationInput } from '../wire/scene-types.ts';
import { createHostError, HostError, isHostError, type HostErrorCode } from '../errors.ts';
import { checkDrafts } from './check-annotation.ts';
import { isRecord } from '../wire/json-object.ts';
import { parseAnnotationCsv } from './parse-annotation-csv.ts';
import { inTurns, weighedRuns } from '../memory/turn-batches.ts';
import { pointsOf } from './annotation-record.ts';

/** Bodies up to this many characters are read where they arrive (a thread's round trip costs more). */
export const INLINE_IMPORT_CHARS = 64 * 1024;

export interface ParseImportTask {
  op: 'parseImport';
  kind: 'csv' | 'json';
  /** The body: text, or (a large CSV) its UTF-8 bytes as they arrived, decoded on the thread. */
  text: string | Uint8Array;
  max: number;
}

/** The drafts read, and whether the body was one annotation (not a list): the answer differs. */
export interface ReadImport {
  drafts: AnnotationInput[];
  single: boolean;
}

/**
 * What the thread sends back: the drafts as JSON texts of a few thousand points each, or the
 * refusal. Cloning 100,000 objects across would hold the event loop at once, and so would
 * cloning 16 MiB of strings (about 0.1 s of the receiving thread): the texts are UTF-8 bytes
 * one after another in shared memory, which crosses without a copy, `ends[i]` where text `i`
 * ends; the host decodes and parses them a batch per turn.
 */
export type ImportOutcome =
  | { ok: true; texts: Uint8Array; ends: number[]; single: boolean }
  | { ok: false; code: HostErrorCode; message: string };

/** Points per JSON text sent back (2,000 marks of one point, or one polyline of up to 10,000 points alone): a few milliseconds of parsing each. */
const BATCH_POINTS = 2000;

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
    const text = typeof task.text === 'string' ? task.text : Buffer.from(task.text.buffer, task.text.byteOffset, task.text.byteLength).toString('utf8');
    const read = task.kind === 'csv' ? { drafts: parseAnnotationCsv(text, task.max), single: false } : parseJsonList(text, task.max);
    const batches = weighedRuns(read.drafts, BATCH_POINTS, pointsOf).map((run) => JSON.stringify(run));
    return { ok: true, ...sharedTexts(batches), single: read.single };
  } catch (error) {
    if (isHostError(error)) return { ok: false, code: error.code, message: error.message };
    throw error;
  }
}

/** `texts` as UTF-8, one after another in shared memory, and where each ends. */
function sharedTexts(texts: readonly string[]): { texts: Uint8Array; ends: number[] } {
  const bytes = Buffer.from(new SharedArrayBuffer(texts.reduce((n, text) => n + Buffer.byteLength(text), 0)));
  const ends: number[] = [];
  let at = 0;
  for (const text of texts) ends.push((at += bytes.write(text, at)));
  return { texts: new Uint8Array(bytes.buffer, 0, at), ends };
}

/** The drafts, a batch per turn of the event loop, or the refusal thrown again where the request is answered. */
export async function draftsOf(outcome: ImportOutcome): Promise<ReadImport> {
  if (!outcome.ok) throw new HostError(outcome.code, outcome.message);
  const { texts, ends } = outcome;
  const text = (i: number) => Buffer.from(texts.buffer, texts.byteOffset + (ends[i - 1] ?? 0), ends[i]! - (ends[i - 1] ?? 0)).toString('utf8');
  const batches = await inTurns(ends, 1, (_, i) => JSON.parse(text(i)) as AnnotationInput[]);
  return { drafts: batches.flat(), single: outcome.single };
}
