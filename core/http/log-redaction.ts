/**
 * @module log-redaction
 * Every line the host logs passes the redactor before pino writes it: messages, formatted
 * arguments and the message and stack of a logged error. Route code and the Redis service
 * say what they mean ("Redis at <url> is not connected") and the credentials are taken out
 * here, once, so a line added later cannot leak one by forgetting.
 */
import type { Redactor } from '../redact-credentials.ts';

function redactedError(error: Error, redactor: Redactor): Error {
  const copy = Object.create(Object.getPrototypeOf(error) as object) as Error;
  Object.assign(copy, error);
  copy.message = redactor.text(error.message);
  if (error.stack) copy.stack = redactor.text(error.stack);
  return copy;
}

function redactedArgument(value: unknown, redactor: Redactor): unknown {
  if (typeof value === 'string') return redactor.text(value);
  if (value instanceof Error) return redactedError(value, redactor);
  if (value && typeof value === 'object' && 'err' in value && (value as { err: unknown }).err instanceof Error) {
    return { ...value, err: redactedError((value as { err: Error }).err, redactor) };
  }
  return value;
}

/** pino's `hooks` option, as far as it is used here. */
export interface LogHooks {
  logMethod(this: unknown, args: unknown[], method: (...args: unknown[]) => void): void;
}

/** The pino `hooks` that pass each log call's arguments through `redactor`. */
export function redactingLogHooks(redactor: Redactor): LogHooks {
  return {
    logMethod(args, method) {
      method.apply(this, args.map((arg) => redactedArgument(arg, redactor)));
    },
  };
}
