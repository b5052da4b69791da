/**
 * @module snapshot-marks
 * A snapshot document's annotations kept once per content: the document (canonical JSON, its
 * `annotations` array first) is cut into its head, each annotation's JSON and its tail; each
 * annotation's text is held once in a pool however many snapshots hold it (a thousand snapshots
 * of a room of a thousand marks keep a thousand marks, plus references), and the document is
 * joined again, byte for byte, when read.
 */

const HEAD = '{"annotations":[';

/** A document cut into parts: `head + marks.join(',') + tail` is the document. */
export interface SplitDocument {
  head: string;
  marks: string[];
  tail: string;
}

/** Cuts `json` at its top-level annotations; a document not starting with them is all head. */
export function splitDocument(json: string): SplitDocument {
  if (!json.startsWith(HEAD)) return { head: json, marks: [], tail: '' };
  const marks: string[] = [];
  let depth = 0;
  let inString = false;
  let start = HEAD.length;
  for (let i = start; i < json.length; i++) {
    const c = json.charCodeAt(i);
    if (inString) {
      if (c === 92) i++;
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 || c === 91) depth++;
    else if (c === 125 || c === 93) {
      if (depth === 0) {
        if (i > start) marks.push(json.slice(start, i));
        return { head: HEAD, marks, tail: json.slice(i) };
      }
      depth--;
    } else if (c === 44 && depth === 0) {
      marks.push(json.slice(start, i));
      start = i + 1;
    }
  }
  return { head: json, marks: [], tail: '' };
}

/** A fresh copy of `text`: a slice would keep the whole document it was cut from alive. */
function copyOf(text: string): string {
  return Buffer.from(text, 'utf8').toString('utf8');
}

/** Annotation texts, each held once and counted by how many stored documents refer to it. */
export class MarkPool {
  #counts = new Map<string, { text: string; count: number }>();
  #bytes = 0;

  /** Characters of the distinct texts held. */
  get bytes(): number {
    return this.#bytes;
  }

  /** Characters `marks` would add to the pool. */
  added(marks: readonly string[]): number {
    let bytes = 0;
    for (const mark of new Set(marks)) if (!this.#counts.has(mark)) bytes += mark.length;
    return bytes;
  }

  /** The pooled texts for `marks`, each now referred to once more. */
  take(marks: readonly string[]): string[] {
    return marks.map((mark) => {
      let held = this.#counts.get(mark);
      if (!held) {
        held = { text: copyOf(mark), count: 0 };
        this.#counts.set(held.text, held);
        this.#bytes += mark.length;
      }
      held.count++;
      return held.text;
    });
  }

  /** Each of `marks` referred to once less; texts no document refers to are let go. */
  give(marks: readonly string[]): void {
    for (const mark of marks) {
      const held = this.#counts.get(mark);
      if (!held || --held.count > 0) continue;
      this.#counts.delete(mark);
      this.#bytes -= mark.length;
    }
  }

  clear(): void {
    this.#counts.clear();
    this.#bytes = 0;
  }
}
