/**
 * @module reply-speech
 * The agent's reply spoken: its text, as it streams, cut into sentences, each spoken by the
 * text-to-speech service in turn and sent to every socket as a `tts` binary frame (numbered from
 * 0 within the reply); once the reply is complete and its last sentence sent, `agent_audio_end`.
 * A sentence the service fails (no answer in time, a refusal) is told to the room, and the rest of
 * that reply is not spoken: its `agent_audio_end` follows at once.
 * Silencing it (an interrupt, someone taking the floor) drops what is waiting, abandons the
 * sentence being spoken, and says `agent_audio_end` with `interrupted` at once.
 *
 * A sentence ends at `.`, `!`, `?` or a line break followed by a space (or the end of what has
 * come), once it holds a few characters, so speech starts with the first sentence rather than
 * after the whole reply. What is left when the reply ends is the last sentence.
 */
import { hostFrames } from '../agent-frames.ts';
import { encodeBinary, ttsHeader } from '../binary-frame.ts';
import { bytesOf } from './pcm-audio.ts';
import { SpeechFault, type TextToSpeech } from './speech-services.ts';
import type { VoiceHost } from './room-voice.ts';

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

/** The end of a reply in the queue of sentences. */
const END = Symbol('end of the reply');

export class ReplySpeech {
  #tts: TextToSpeech;
  #host: VoiceHost;
  #chunks = new SentenceChunks();
  #queue: (string | typeof END)[] = [];
  #draining = false;
  #seq = 0;
  #speaking = false;
  /** Moves on each silencing: a sentence spoken for an earlier reply is dropped. */
  #epoch = 0;
  #current: AbortController | null = null;
  /** A sentence of this reply failed: the rest of it is passed over, up to its end. */
  #failed = false;

  constructor(tts: TextToSpeech, host: VoiceHost) {
    this.#tts = tts;
    this.#host = host;
  }

  /** Whether a reply is being spoken (from its first piece of text to its `agent_audio_end`). */
  get speaking(): boolean {
    return this.#speaking;
  }

  spoken(piece: string): void {
    this.#speaking = true;
    this.#push(...this.#chunks.feed(piece));
  }

  /** The reply is complete: its last sentence, then the end. */
  replyDone(): void {
    const rest = this.#chunks.flush();
    this.#speaking = true;
    this.#push(...(rest ? [rest] : []), END);
  }

  silence(interrupted: boolean): void {
    if (!this.#speaking && this.#queue.length === 0) return;
    this.#epoch++;
    this.#current?.abort();
    this.#queue = [];
    this.#chunks = new SentenceChunks();
    this.#seq = 0;
    this.#speaking = false;
    this.#failed = false;
    this.#host.broadcast(hostFrames.agentAudioEnd(interrupted));
  }

  #push(...items: (string | typeof END)[]): void {
    this.#queue.push(...items);
    if (!this.#draining) void this.#drain().catch((error: unknown) => this.#host.fault('the reply could not be spoken', error));
  }

  async #drain(): Promise<void> {
    this.#draining = true;
    try {
      for (let item = this.#queue.shift(); item !== undefined; item = this.#queue.shift()) {
        if (item === END) {
          this.#failed = false;
          this.#speaking = false;
          this.#seq = 0;
          this.#host.broadcast(hostFrames.agentAudioEnd(false));
          continue;
        }
        if (!this.#failed) await this.#say(item);
      }
    } finally {
      this.#draining = false;
    }
  }

  async #say(sentence: string): Promise<void> {
    const epoch = this.#epoch;
    const current = (this.#current = new AbortController());
    try {
      const samples = await this.#tts.speak(sentence, current.signal);
      if (epoch !== this.#epoch || samples.length === 0) return;
      this.#host.broadcastBytes(encodeBinary(ttsHeader(this.#seq++), bytesOf(samples)));
    } catch (error) {
      if (epoch !== this.#epoch) return;
      // A service that failed one sentence is not waited on for the rest of the reply: its
      // sentences are dropped and the reply's end (`agent_audio_end`) comes at once.
      this.#host.fault('a sentence could not be spoken', error);
      this.#host.broadcast(hostFrames.error(error instanceof SpeechFault ? error.message : 'text to speech failed: internal error'));
      this.#failed = true;
    } finally {
      if (this.#current === current) this.#current = null;
    }
  }
}
