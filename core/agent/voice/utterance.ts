/**
 * @module utterance
 * What the floor's holder said, as its audio frames arrive: each frame's PCM kept at the rate it
 * came in, at most MAX_UTTERANCE_SECONDS of it (a holder that keeps talking past that is told
 * once, and the rest is not kept), and made into one WAV file at the first frame's rate for the
 * speech-to-text service.
 */
import { resample, samplesOf, wavOf } from './pcm-audio.ts';

/** Most audio one utterance keeps. */
export const MAX_UTTERANCE_SECONDS = 90;
/** Shortest utterance worth transcribing: anything shorter is a release of the floor. */
export const MIN_UTTERANCE_SECONDS = 0.5;
/** Rates a microphone frame may say it has. */
const MIN_RATE = 8000;
const MAX_RATE = 192000;

/** Why an audio frame's header is refused, or null. */
export function audioHeaderProblem(header: Record<string, unknown>): string | null {
  const rate = header.rate;
  if (typeof rate !== 'number' || !Number.isInteger(rate) || rate < MIN_RATE || rate > MAX_RATE) {
    return `an audio frame's rate must be an integer from ${MIN_RATE} to ${MAX_RATE}, got ${JSON.stringify(rate) ?? 'none'}`;
  }
  if (header.format !== undefined && header.format !== 's16le') return `an audio frame's format must be s16le, got ${JSON.stringify(header.format)}`;
  if (header.channels !== undefined && header.channels !== 1) return `an audio frame has 1 channel, got ${JSON.stringify(header.channels)}`;
  return null;
}

export class Utterance {
  #chunks: { samples: Int16Array; rate: number }[] = [];
  #seconds = 0;
  /** Whether audio past the bound was refused (the holder is told once). */
  full = false;

  get seconds(): number {
    return this.#seconds;
  }

  /** Keeps `pcm` at `rate`; false when it would pass the bound (nothing of it is kept). */
  add(pcm: Uint8Array, rate: number): boolean {
    const samples = samplesOf(pcm);
    const seconds = samples.length / rate;
    if (this.#seconds + seconds > MAX_UTTERANCE_SECONDS) return false;
    this.#chunks.push({ samples, rate });
    this.#seconds += seconds;
    return true;
  }

  /** The utterance as one WAV file, at the rate of its first frame. */
  wav(): Buffer {
    const rate = this.#chunks[0]?.rate ?? 16000;
    const parts = this.#chunks.map((chunk) => resample(chunk.samples, chunk.rate, rate));
    const all = new Int16Array(parts.reduce((n, part) => n + part.length, 0));
    let at = 0;
    for (const part of parts) {
      all.set(part, at);
      at += part.length;
    }
    return wavOf(all, rate);
  }
}
