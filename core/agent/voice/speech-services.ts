/**
 * @module speech-services
 * The speech services a host is given, speaking OpenAI's audio routes as whisper.cpp's server,
 * faster-whisper-server, speaches and Kokoro-FastAPI do: speech to text is a multipart
 * `POST <--stt-url>/v1/audio/transcriptions` of a WAV file answering `{"text"}`; text to speech is
 * `POST <--tts-url>/v1/audio/speech` asking for raw 24 kHz 16-bit PCM (a WAV answer is read and
 * brought to 24 kHz too). A URL that already ends in `/v1` is not given a second. OPENAI_API_KEY,
 * when set, goes with each request as a Bearer token. Each request is bounded in time.
 */
import { readWav, resample, samplesOf } from './pcm-audio.ts';

/** The rate speech goes out at (the `tts` frames' header says it). */
export const SPEECH_RATE = 24000;
/** Longest a speech service may take over one request. */
const REQUEST_MS = 30_000;

export interface SpeechToText {
  transcribe(wav: Buffer): Promise<string>;
}

export interface TextToSpeech {
  /** 24 kHz mono 16-bit samples of `text` spoken. */
  speak(text: string, signal: AbortSignal): Promise<Int16Array>;
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

  constructor(base: string, route: string, env: NodeJS.ProcessEnv) {
    this.#url = routeOf(base, route);
    this.#env = env;
  }

  protected async post(service: string, init: { body: BodyInit; headers?: Record<string, string>; signal: AbortSignal }): Promise<Response> {
    const authorization: Record<string, string> = this.#env.OPENAI_API_KEY ? { authorization: `Bearer ${this.#env.OPENAI_API_KEY}` } : {};
    const answer = await fetch(this.#url, { ...init, method: 'POST', headers: { ...init.headers, ...authorization } });
    if (answer.ok) return answer;
    const body = (await answer.text().catch(() => '')).slice(0, 200);
    throw new Error(`${service} answered ${answer.status}${body ? `: ${body}` : ''}`);
  }
}

export class OpenAiSpeechToText extends SpeechRoute implements SpeechToText {
  constructor(base: string, env: NodeJS.ProcessEnv = process.env) {
    super(base, 'transcriptions', env);
  }

  async transcribe(wav: Buffer): Promise<string> {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(wav)], { type: 'audio/wav' }), 'utterance.wav');
    form.append('model', 'whisper-1');
    form.append('response_format', 'json');
    const answer = await this.post('speech to text', { body: form, signal: AbortSignal.timeout(REQUEST_MS) });
    const body = (await answer.json()) as { text?: unknown };
    return typeof body.text === 'string' ? body.text.trim() : '';
  }
}

export class OpenAiTextToSpeech extends SpeechRoute implements TextToSpeech {
  constructor(base: string, env: NodeJS.ProcessEnv = process.env) {
    super(base, 'speech', env);
  }

  async speak(text: string, signal: AbortSignal): Promise<Int16Array> {
    const answer = await this.post('text to speech', {
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'tts-1', voice: 'alloy', input: text, response_format: 'pcm' }),
      signal: AbortSignal.any([signal, AbortSignal.timeout(REQUEST_MS)]),
    });
    const bytes = Buffer.from(await answer.arrayBuffer());
    const wav = readWav(bytes);
    return wav ? resample(wav.samples, wav.rate, SPEECH_RATE) : samplesOf(bytes);
  }
}
