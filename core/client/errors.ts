/**
 * @module errors
 * Typed errors of the client. Every non-2xx answer becomes a {@link VitrineHttpError} (or one
 * of its subclasses, chosen by status), carrying the host's `detail` and `code`
 * (`{"status_code", "detail", "code"}`). A job that ends in `error` becomes a
 * {@link VitrineJobError}; an aborted call rejects with a `DOMException` named `AbortError`,
 * as `fetch` itself does.
 */

/** What went wrong, by HTTP status class, for callers that prefer a switch over `instanceof`. */
export type HttpErrorKind = 'invalid' | 'not_found' | 'conflict' | 'gone' | 'server' | 'other';

/** Any non-2xx answer from the host. */
export class VitrineHttpError extends Error {
  override name = 'VitrineHttpError';

  constructor(
    /** The HTTP status code. */
    readonly status: number,
    /** The host's readable message (`detail`), or the status text when the body had none. */
    readonly detail: string,
    /** The host's error code (e.g. `SPC_ERR_PARAM_INVALID`), when it sent one. */
    readonly code: string | null,
    /** The request that failed, as `METHOD path`. */
    readonly request: string,
    readonly kind: HttpErrorKind = 'other',
  ) {
    super(`${request} answered ${status}: ${detail}`);
  }
}

/**
 * The base of an error with one status: its constructor takes the host's `detail` and `code`
 * and the request, as every subclass below does.
 */
function fixedStatusError(status: number, kind: HttpErrorKind, name: string): new (detail: string, code: string | null, request: string) => VitrineHttpError {
  return class extends VitrineHttpError {
    override name = name;
    constructor(detail: string, code: string | null, request: string) {
      super(status, detail, code, request, kind);
    }
  };
}

/** 400: the parameters (or another part of the request) were rejected; `detail` names the parameter. */
export class InvalidRequestError extends fixedStatusError(400, 'invalid', 'InvalidRequestError') {}

/** 404: unknown specimen, function, job (also a job swept after its time-to-live) or route. */
export class NotFoundError extends fixedStatusError(404, 'not_found', 'NotFoundError') {}

/** 409: the job's result was asked for while it is still running. */
export class JobRunningError extends fixedStatusError(409, 'conflict', 'JobRunningError') {}

/** 410: the job's result was asked for but the job failed (or was cancelled). */
export class JobGoneError extends fixedStatusError(410, 'gone', 'JobGoneError') {}

/** 5xx: the function threw, a worker died, or the host is shutting down. */
export class ServerError extends VitrineHttpError {
  override name = 'ServerError';
  constructor(status: number, detail: string, code: string | null, request: string) {
    super(status, detail, code, request, 'server');
  }
}

/** A background job that ended with status `error` (its `error` text, e.g. `cancelled`). */
export class VitrineJobError extends Error {
  override name = 'VitrineJobError';

  constructor(
    readonly jobId: string,
    /** The job's `error` value from the progress response. */
    readonly error: string,
  ) {
    super(`job ${jobId} failed: ${error}`);
  }
}

/** Builds the error subclass that matches `status`. */
export function httpError(status: number, detail: string, code: string | null, request: string): VitrineHttpError {
  if (status === 400) return new InvalidRequestError(detail, code, request);
  if (status === 404) return new NotFoundError(detail, code, request);
  if (status === 409) return new JobRunningError(detail, code, request);
  if (status === 410) return new JobGoneError(detail, code, request);
  if (status >= 500) return new ServerError(status, detail, code, request);
  return new VitrineHttpError(status, detail, code, request);
}

/** The rejection an aborted call settles with: a `DOMException` named `AbortError`. */
export function abortError(signal?: AbortSignal): Error {
  const reason: unknown = signal?.reason;
  if (reason instanceof Error && reason.name === 'AbortError') return reason;
  return new DOMException(typeof reason === 'string' ? reason : 'The operation was aborted', 'AbortError');
}

/** True for the rejection of an aborted call (ours or fetch's). */
export function isAbortError(error: unknown): boolean {
  return error instanceof Error && error.name === 'AbortError';
}

/**
 * An events route answered 2xx with something other than `text/event-stream` (e.g. a proxy's
 * page): the host, or what stands in front of it, does not offer the stream.
 */
export class EventStreamUnavailableError extends Error {
  override name = 'EventStreamUnavailableError';

  constructor(
    /** The request, as `GET path`. */
    readonly request: string,
    contentType: string | null,
  ) {
    super(`${request} answered ${contentType ?? 'no content type'}, not an event stream`);
  }
}
