/**
 * @module log-redaction
 * Every line the host logs passes the redactor before pino writes it: messages, formatted
 * arguments and the message and stack of a logged error. Route code and the Redis service
 * say what they mean ("Redis at <url> is not connected") and the credentials are taken out
 * here, once, so a line added later cannot leak one by forgetting. The redactor never throws and
 * never writes into what it is given: an error is copied, its redacted message and stack set on
 * the copy as its own properties (a DOMException's `message` is a getter with no setter, and an
 * error may be frozen), and a line it cannot redact is logged as it came rather than lost.
 */
import type { Redactor } from '../redact-credentials.ts';

/** A property of the copy: its own, so a getter of the prototype is shadowed, not called. */
const own = (value: unknown): PropertyDescriptor => ({ value, writable: true, configurable: true, enumerable: false });

/**
 * A copy of `error` with its words redacted. A platform error (a DOMException: a fetch's timeout or
 * abort) keeps its fields as getters of its prototype that throw on any other object, so its copy
 * is a plain Error carrying its name and code.
 */
function redactedError(error: Error, redactor: Redactor): Error {
  const platform = error instanceof DOMException;
  const copy = Object.create(platform ? Error.prototype : (Object.getPrototypeOf(error) as object)) as Error;
  Object.assign(copy, error);
  Object.defineProperty(copy, 'name', own(String(error.name)));
  Object.defineProperty(copy, 'message', own(redactor.text(String(error.message))));
  if (error.stack) Object.defineProperty(copy, 'stack', own(redactor.text(String(error.stack))));
  if (platform) Object.defineProperty(copy, 'code', own((error as DOMException).code));
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
      let redacted: unknown[];
      try {
        redacted = args.map((arg) => redactedArgument(arg, redactor));
      } catch {
        // Only a value that throws when read lands here: its line keeps its words, not its error.
        redacted = args.map((arg) => (typeof arg === 'string' ? redactor.text(arg) : String(Object.prototype.toString.call(arg))));
      }
      method.apply(this, redacted);
    },
  };
}
