/**
 * @module sentence-chunks
 * The agent's reply, streamed in pieces, cut into sentences to be spoken one at a time: a
 * sentence ends at `.`, `!`, `?` or a line break followed by a space (or the end of what has
 * come), once it holds a few characters, so speech starts with the first sentence rather than
 * after the whole reply. What is left when the reply ends is the last sentence.
 */

const ENDS = new Set(['.', '!', '?', '\n']);
/** Fewest characters a sentence holds (so "1." in a list is not one). */
const MIN_SENTENCE = 3;

export class SentenceChunks {
  #text = '';

  /** Adds a piece of the reply; answers the sentences it completed. */
  feed(piece: string): string[] {
    this.#text += piece;
    const sentences: string[] = [];
    let start = 0;
    for (let i = 0; i < this.#text.length; i++) {
      if (!ENDS.has(this.#text[i]!)) continue;
      const next = this.#text[i + 1];
      if ((next !== undefined && next !== ' ' && next !== '\n') || i + 1 - start < MIN_SENTENCE) continue;
      const sentence = this.#text.slice(start, i + 1).trim();
      if (sentence) sentences.push(sentence);
      start = i + 1;
    }
    this.#text = this.#text.slice(start);
    return sentences;
  }

  /** What is left: the reply's last sentence, or ''. */
  flush(): string {
    const rest = this.#text.trim();
    this.#text = '';
    return rest;
  }
}
