/**
 * @module speech-services
 * The speech services a host is given, speaking OpenAI's audio routes as whisper.cpp's server,
 * faster-whisper-server, speaches and Kokoro-FastAPI do: speech to text is a multipart
 * `POST <--stt-url>/v1/audio/transcriptions` of a WAV file answering `{"text"}`; text to speech is
 * `POST <--tts-url>/v1/audio/speech` asking for raw 24 kHz 16-bit PCM (a WAV answer is read and
 * brought to 24 kHz too). A URL that already ends in `/v1` is not given a second. OPENAI_API_KEY,
 * when set, goes with each request as a Bearer token. Each request is bounded in time (at most
 * 30 s, and never past a turn's limit), and so is what it answers: each answer is read as a
 * stream and let go at its bound (a transcript of at most 64 KiB, at most 60 s of speech a
 * sentence, a refusal only as far as the words quoted from it), so no service can make the host
 * hold more than that. Whatever goes wrong (no answer in time, no connection, a refusal, an
 * answer past its bound) is thrown as a {@link SpeechFault} in words a room can be told.
 */
import { readWav, resample, samplesOf } from './pcm-audio.ts';

/** The rate speech goes out at (the `tts` frames' header says it). */
export const SPEECH_RATE = 24000;
/** Longest a speech service may take over one request, unless the host's turns are shorter. */
export const SPEECH_REQUEST_MS = 30_000;
/** Longest transcript taken from speech to text, in bytes of its UTF-8 text. */
export const MAX_TRANSCRIPT_BYTES = 64 * 1024;
/** Most seconds of speech one sentence may be. */
export const MAX_SENTENCE_SECONDS = 60;
/** Most bytes of a refusal's body read, to quote it. */
export const REFUSAL_QUOTE_BYTES = 200;
/** Room in a transcription's answer for the JSON around its text. */
const TRANSCRIPT_ENVELOPE_BYTES = 1024;
/**
 * Most bytes of a speech answer read: 60 s at the largest rate and width a WAV answer may come
 * in (48 kHz stereo 16-bit), with room for its header. Its seconds are checked once read.
 */
const MAX_SPEECH_BYTES = MAX_SENTENCE_SECONDS * 48000 * 2 * 2 + 4096;

/** A speech service failed: what it said or why it could not, in a room's words. */
export class SpeechFault extends Error {
  override name = 'SpeechFault';
}

export interface SpeechToText {
  transcribe(wav: Buffer): Promise<string>;
}

export interface TextToSpeech {
  /** 24 kHz mono 16-bit samples of `text` spoken. */
  speak(text: string, signal: AbortSignal): Promise<Int16Array>;
}

/** An answer read as a stream, at most `limit` bytes of it: past the bound the stream is cancelled (the connection let go). */
interface BoundedBody {
  /** At most `limit` bytes of the answer, from its start. */
  bytes: Buffer;
  /** The answer went on past `limit` (and was not read further). */
  over: boolean;
}

/** Reads `body` until it ends or passes `limit` bytes, whichever comes first. */
async function readBounded(body: ReadableStream<Uint8Array> | null, limit: number): Promise<BoundedBody> {
  if (!body) return { bytes: Buffer.alloc(0), over: false };
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return { bytes: Buffer.concat(chunks, total), over: false };
      chunks.push(value);
      total += value.byteLength;
      if (total > limit) {
        await reader.cancel().catch(() => {});
        return { bytes: Buffer.concat(chunks, total).subarray(0, limit), over: true };
      }
    }
  } finally {
    reader.releaseLock();
  }
}

/** `<base>/v1/audio/<route>`, without doubling a `/v1` the base already ends in. */
function routeOf(base: string, route: string): string {
  const trimmed = base.replace(/\/+$/, '');
  return `${trimmed}${trimmed.endsWith('/v1') ? '' : '/v1'}/audio/${route}`;
}

/** One route of a speech service, posted to with the key when there is one; an answer not ok is thrown. */
abstract class SpeechRoute {
  #url: string;
  #env: NodeJS.ProcessEnv;
  protected readonly timeoutMs: number;

  constructor(base: string, route: string, env: NodeJS.ProcessEnv, timeoutMs: number) {
    this.#url = routeOf(base, route);
    this.#env = env;
    this.timeoutMs = timeoutMs;
  }

  /** The request's own time limit, joined to `signal` (a silenced reply) when there is one. */
  protected limit(signal?: AbortSignal): AbortSignal {
    const timeout = AbortSignal.timeout(this.timeoutMs);
    return signal ? AbortSignal.any([signal, timeout]) : timeout;
  }

  /** Reads the answer with `read`; any failure on the way is a {@link SpeechFault} naming `service`. */
  protected async exchange<T>(
    service: string,
    init: { body: BodyInit; headers?: Record<string, string>; signal: AbortSignal },
    read: (answer: Response) => Promise<T>,
  ): Promise<T> {
    try {
      const authorization: Record<string, string> = this.#env.OPENAI_API_KEY ? { authorization: `Bearer ${this.#env.OPENAI_API_KEY}` } : {};
      const answer = await fetch(this.#url, { ...init, method: 'POST', headers: { ...init.headers, ...authorization } });
      if (!answer.ok) {
        // Only the words quoted are read; the rest of the body is let go unread.
        const quote = await readBounded(answer.body, REFUSAL_QUOTE_BYTES).catch(() => ({ bytes: Buffer.alloc(0), over: false }));
        const words = quote.bytes.toString('utf8').trim() + (quote.over ? '…' : '');
        throw new SpeechFault(`${service} answered ${answer.status}${words ? `: ${words}` : ''}`);
      }
      return await read(answer);
    } catch (error) {
      throw this.#fault(service, error, init.signal);
    }
  }

  #fault(service: string, error: unknown, signal: AbortSignal): unknown {
    if (error instanceof SpeechFault) return error;
    // A silenced reply's abort is the caller's own: passed on as it is.
    if (signal.aborted && (signal.reason as Error | undefined)?.name !== 'TimeoutError') return signal.reason;
    if (signal.aborted) return new SpeechFault(`${service} did not answer within ${Math.round(this.timeoutMs / 1000)} s`);
    const cause = (error as { cause?: unknown }).cause;
    const why = cause instanceof Error ? cause.message : error instanceof Error ? error.message : String(error);
    return new SpeechFault(`${service} could not be reached: ${why}`);
  }
}

export class OpenAiSpeechToText extends SpeechRoute implements SpeechToText {
  constructor(base: string, env: NodeJS.ProcessEnv = process.env, timeoutMs = SPEECH_REQUEST_MS) {
    super(base, 'transcriptions', env, timeoutMs);
  }

  async transcribe(wav: Buffer): Promise<string> {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(wav)], { type: 'audio/wav' }), 'utterance.wav');
    form.append('model', 'whisper-1');
    form.append('response_format', 'json');
    const body = await this.exchange('speech to text', { body: form, signal: this.limit() }, async (answer) => {
      const read = await readBounded(answer.body, MAX_TRANSCRIPT_BYTES + TRANSCRIPT_ENVELOPE_BYTES);
      if (read.over) throw tooLong();
      try {
        return JSON.parse(read.bytes.toString('utf8')) as { text?: unknown } | null;
      } catch {
        throw new SpeechFault('speech to text answered something that is not JSON');
      }
    });
    const text = typeof body?.text === 'string' ? body.text.trim() : '';
    if (Buffer.byteLength(text) > MAX_TRANSCRIPT_BYTES) throw tooLong();
    return text;
  }
}

export class OpenAiTextToSpeech extends SpeechRoute implements TextToSpeech {
  constructor(base: string, env: NodeJS.ProcessEnv = process.env, timeoutMs = SPEECH_REQUEST_MS) {
    super(base, 'speech', env, timeoutMs);
  }

  async speak(text: string, signal: AbortSignal): Promise<Int16Array> {
    const init = {
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'tts-1', voice: 'alloy', input: text, response_format: 'pcm' }),
      signal: this.limit(signal),
    };
    const bytes = await this.exchange('text to speech', init, async (answer) => {
      const read = await readBounded(answer.body, MAX_SPEECH_BYTES);
      if (read.over) throw tooMuchSpeech();
      return read.bytes;
    });
    const wav = readWav(bytes);
    const samples = wav ? resample(wav.samples, wav.rate, SPEECH_RATE) : samplesOf(bytes);
    if (samples.length > MAX_SENTENCE_SECONDS * SPEECH_RATE) throw tooMuchSpeech();
    return samples;
  }
}

function tooLong(): SpeechFault {
  return new SpeechFault(`speech to text answered a transcript longer than ${MAX_TRANSCRIPT_BYTES / 1024} KiB; it was not read further`);
}

function tooMuchSpeech(): SpeechFault {
  return new SpeechFault(`text to speech answered more than ${MAX_SENTENCE_SECONDS} s of speech for one sentence; it was not read further`);
}
