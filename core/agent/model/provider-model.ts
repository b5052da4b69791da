/**
 * @module provider-model
 * What both client libraries share: the model's name, the base URL (`--agent-url`, else the
 * library's own), the key from the provider's environment variable (read once, kept nowhere
 * else), no retries (a refusal reaches the room at once, in the provider's words) and the turn's
 * time limit, one client made by the first step, and a failure turned into the provider's words
 * with every key taken out. Each step's request goes out by the library's own path; the `fetch`
 * it is given counts the bytes of the body it sends (for `/metrics`) and checks the answer is
 * the event stream every step asks for: a 200 of another kind (a server that ignored `stream`,
 * a proxy's HTML page) would otherwise read as an empty reply, so it ends the turn, named.
 *
 * A provider's failure reaches the room's `error` frame in the provider's words: its HTTP status
 * and the message of its error body (401 a bad key, 429 too many requests, 5xx its own trouble),
 * or that it could not be reached or did not answer in time. Both official client libraries
 * raise errors of the same shapes (`status`, the body's message, a connection error, a timeout,
 * an abort), read here without importing either. A provider may quote the key it was given
 * (some quote part of it back); every key, and anything shaped like one, is taken out.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { Redactor, REDACTED } from '../../redact-credentials.ts';
import { ModelRefusal, type AgentModel, type ModelRequest, type ModelStep } from './agent-model.ts';

export interface ProviderSettings {
  model: string;
  url: string | null;
  timeoutMs: number;
  env?: NodeJS.ProcessEnv;
}

/** The client library's options besides its credentials. */
export interface ClientOptions {
  baseURL?: string;
  maxRetries: 0;
  timeout: number;
  fetch: typeof fetch;
}

/** The step under way, wherever the library's call leads: bytes sent, and an answer that was not a stream. */
interface Sending {
  bytes: number;
  /** A 2xx answer that was not an event stream: its status and content type. */
  notStream?: string;
}

const sending = new AsyncLocalStorage<Sending>();

/** Bytes of a request body as the libraries hand it to fetch (a JSON string, or bytes). */
function bodyBytes(body: BodyInit | null | undefined): number {
  if (typeof body === 'string') return Buffer.byteLength(body);
  if (body instanceof ArrayBuffer || ArrayBuffer.isView(body)) return body.byteLength;
  if (body instanceof Blob) return body.size;
  return 0;
}

/** Thrown into the library when an answer is not a stream; the step reports it in its own words. */
class NotEventStream extends Error {}

/** `fetch`, counting each request's body into the step that sends it, refusing a 2xx that is not a stream. */
const countingFetch: typeof fetch = async (input, init) => {
  const step = sending.getStore();
  if (step) step.bytes += bodyBytes(init?.body);
  // A model's request never follows a redirect: its key would go along to wherever it points.
  // (That also spares fetch the copy of the body it keeps for a redirect it might follow.)
  const answer = await fetch(input, { ...init, redirect: 'error' }).catch((error: Error) => {
    const redirected = error.cause instanceof Error && /redirect/i.test(error.cause.message);
    throw redirected ? new Error('it answered with a redirect, which a model\'s request never follows') : error;
  });
  const type = answer.headers.get('content-type') ?? '';
  if (step && answer.ok && !/^text\/event-stream\b/i.test(type)) {
    step.notStream = `${answer.status} with ${type.split(';')[0]!.trim() || 'no content type'}`;
    await answer.body?.cancel().catch(() => {});
    throw new NotEventStream(`answered ${step.notStream}, not an event stream`);
  }
  return answer;
};

/** Words shaped like an API key or a bearer token. */
const KEY_LIKE = /\b(?:sk|pk|rk|key|api[-_]?key)[-_][A-Za-z0-9._*-]{6,}|\bBearer\s+[A-Za-z0-9._~+/=-]{6,}/gi;

type ProviderError = Error & { status?: unknown; apiMessage?: unknown; error?: { message?: unknown; error?: { message?: unknown } } };

/** The message an error body carries, in the shapes the two APIs answer. */
function bodyMessage(error: ProviderError): string | null {
  if (typeof error.apiMessage === 'string' && error.apiMessage) return error.apiMessage;
  const body = error.error;
  if (typeof body?.message === 'string' && body.message) return body.message;
  if (typeof body?.error?.message === 'string' && body.error.message) return body.error.message;
  return null;
}

/**
 * The error a step throws for `error`: the abort's own reason when the turn was stopped, else a
 * {@link ModelRefusal} saying what `provider` answered.
 */
function providerRefusal(provider: string, error: unknown, signal: AbortSignal, redact: (text: string) => string): unknown {
  if (signal.aborted) return signal.reason;
  const failure = error as ProviderError;
  const name = failure?.constructor?.name ?? '';
  if (name === 'APIConnectionTimeoutError') return new ModelRefusal(`${provider} did not answer in time`);
  if (name === 'APIConnectionError') {
    const why = failure.cause instanceof Error ? failure.cause.message : failure.message;
    return new ModelRefusal(redact(`${provider} could not be reached: ${why}`));
  }
  if (typeof failure?.status === 'number') {
    const words = bodyMessage(failure) ?? failure.message.replace(/^\d{3}\s*/, '');
    return new ModelRefusal(redact(`${provider} answered ${failure.status}: ${words}`));
  }
  return new ModelRefusal(redact(`${provider} failed: ${failure instanceof Error ? failure.message : String(error)}`));
}

/** A model behind a provider's client library of type `Client`. */
export abstract class ProviderModel<Client> implements AgentModel {
  readonly name: string;
  readonly #key: string | undefined;
  readonly #options: ClientOptions;
  readonly #redact: (text: string) => string;
  #client: Client | null = null;

  /** `provider` names the provider in its refusals; its key is read from `keyVariable`. */
  constructor(settings: ProviderSettings, private readonly provider: string, keyVariable: string) {
    this.name = settings.model;
    this.#key = (settings.env ?? process.env)[keyVariable] || undefined;
    const baseURL = settings.url !== null ? { baseURL: settings.url } : {};
    this.#options = { ...baseURL, maxRetries: 0, timeout: settings.timeoutMs, fetch: countingFetch };
    // The key in use, and anything key-like, is taken out of the provider's words.
    const redactor = new Redactor([this.#key]);
    this.#redact = (text) => redactor.text(text).replace(KEY_LIKE, REDACTED);
  }

  /** The library's client; `key` is undefined when the variable is unset or empty. */
  protected abstract connect(key: string | undefined, options: ClientOptions): Promise<Client>;

  /** One step's streamed request. */
  protected abstract reply(client: Client, request: ModelRequest): Promise<Omit<ModelStep, 'bytesSent'>>;

  async step(request: ModelRequest): Promise<ModelStep> {
    const sent: Sending = { bytes: 0 };
    try {
      this.#client ??= await this.connect(this.#key, this.#options);
      const client = this.#client;
      const reply = await sending.run(sent, () => this.reply(client, request));
      return { ...reply, bytesSent: sent.bytes };
    } catch (error) {
      if (sent.notStream !== undefined && !request.signal.aborted) {
        throw new ModelRefusal(this.#redact(`${this.provider} answered ${sent.notStream}, not the event stream asked for`));
      }
      throw providerRefusal(this.provider, error, request.signal, this.#redact);
    }
  }
}
