/**
 * @module provider-refusal
 * A provider's failure in the provider's words, for the room's `error` frame: its HTTP status
 * and the message of its error body (401 a bad key, 429 too many requests, 5xx its own trouble),
 * or that it could not be reached or did not answer in time. Both official client libraries
 * raise errors of the same shapes (`status`, the body's message, a connection error, a timeout,
 * an abort), read here without importing either. A provider may quote the key it was given
 * (some quote part of it back); every key, and anything shaped like one, is taken out.
 */
import { Redactor, REDACTED } from '../../redact-credentials.ts';
import { ModelRefusal } from './agent-model.ts';

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

/** Takes secrets (the keys in use) and anything key-like out of provider words. */
export function providerRedactor(secrets: (string | null | undefined)[]): (text: string) => string {
  const redactor = new Redactor(secrets);
  return (text) => redactor.text(text).replace(KEY_LIKE, REDACTED);
}

/**
 * The error a step throws for `error`: the abort's own reason when the turn was stopped, else a
 * {@link ModelRefusal} saying what `provider` answered.
 */
export function providerRefusal(provider: string, error: unknown, signal: AbortSignal, redact: (text: string) => string): unknown {
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
