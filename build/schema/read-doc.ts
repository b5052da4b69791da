/**
 * @module read-doc
 * What a function's doc comment says: the summary (schema `description`), `@param` texts
 * (property descriptions), the bound tags `@minimum <param> <value>`,
 * `@maximum <param> <value>` and `@range <param> <min> <max>`, and the array item counts
 * `@minItems <param> <n>` and `@maxItems <param> <n>`.
 */
import { Node, type JSDoc, type JSDocTag } from 'ts-morph';

/** One item-count tag as written: `@minItems <param> <n>` or `@maxItems <param> <n>`. */
export interface ItemCountTag {
  tag: JSDocTag;
  kind: 'minItems' | 'maxItems';
  words: string[];
}

/** One bound tag as written. */
export interface BoundTag {
  tag: JSDocTag;
  kind: 'minimum' | 'maximum' | 'range';
  /** The words after the tag name. */
  words: string[];
}

export interface FunctionDoc {
  /** First paragraph of the comment, lines joined by spaces; undefined when empty. */
  summary: string | undefined;
  /** `@param` text by parameter name. */
  params: Map<string, string>;
  /** Every `@param` tag by the name it gives (with or without a text). */
  paramTags: Map<string, JSDocTag>;
  bounds: BoundTag[];
  itemCounts: ItemCountTag[];
}

/** Collapses a comment paragraph to one line. */
export function oneLine(text: string): string {
  return text.split(/\r?\n/).map((line) => line.trim()).filter(Boolean).join(' ');
}

/** The first paragraph of `text` on one line, or undefined when it is empty. */
export function firstParagraph(text: string): string | undefined {
  const paragraph = text.trim().split(/\r?\n\s*\r?\n/)[0] ?? '';
  const line = oneLine(paragraph);
  return line === '' ? undefined : line;
}

/** Reads the doc comment closest to the declaration (the last of `docs`). */
export function readDoc(docs: JSDoc[]): FunctionDoc {
  const doc = docs[docs.length - 1];
  const result: FunctionDoc = { summary: undefined, params: new Map(), paramTags: new Map(), bounds: [], itemCounts: [] };
  if (!doc) return result;
  result.summary = firstParagraph(doc.getDescription());
  for (const tag of doc.getTags()) {
    if (Node.isJSDocParameterTag(tag)) {
      const text = oneLine(tag.getCommentText() ?? '').replace(/^-\s*/, '');
      if (text !== '') result.params.set(tag.getName(), text);
      result.paramTags.set(tag.getName(), tag);
      continue;
    }
    const name = tag.getTagName();
    const words = oneLine(tag.getCommentText() ?? '').split(' ').filter(Boolean);
    if (name === 'minimum' || name === 'maximum' || name === 'range') result.bounds.push({ tag, kind: name, words });
    else if (name === 'minItems' || name === 'maxItems') result.itemCounts.push({ tag, kind: name, words });
  }
  return result;
}
