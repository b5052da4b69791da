/**
 * @module transport
 * One HTTP exchange with the host: builds the URL, sends JSON, and turns any non-2xx answer
 * into a typed {@link VitrineHttpError} carrying the host's `detail` and `code`. A read (GET,
 * HEAD) that the host refuses for now (503 with `Retry-After`: it bounds work such as store
 * lookups per client and sheds load that way) is asked again after the wait it names, a few
 * times, so a page that needs many blobs at once from a host that does not hold them gets
 * them all, a little later, instead of failing some.
 */
import { sleep } from './abortable-sleep.ts';
import { httpError } from './errors.ts';
import type { VitrineHttpError } from './errors.ts';

/** How many times a read refused with 503 and `Retry-After` is asked again. */
export const BUSY_RETRIES = 4;
/** The longest wait taken from a `Retry-After`, ms (a longer one is cut to this). */
const MAX_RETRY_AFTER_MS = 10_000;

/** The wait a 503's `Retry-After` names (seconds or an HTTP date), ms; null without a usable one. */
export function retryAfterMs(header: string | null, now = Date.now()): number | null {
  if (header === null) return null;
  const text = header.trim();
  const ms = /^\d+$/.test(text) ? Number(text) * 1000 : Date.parse(text) - now;
  if (!Number.isFinite(ms)) return null;
  return Math.min(MAX_RETRY_AFTER_MS, Math.max(0, ms));
}

/** The `fetch` a client uses (the global one by default). */
export type FetchLike = (input: string, init?: RequestInit) => Promise<Response>;

export interface RequestOptions {
  /** Query parameters; `undefined` values are left out. */
  query?: Record<string, string | number | undefined>;
  /** Sent as a JSON body. */
  body?: unknown;
  /** Sent as it is, with its media type (e.g. CSV), instead of a JSON body. */
  text?: { type: string; value: string };
  /** Bytes sent as they are, with their media type (a session file). */
  bytes?: { type: string; value: Blob | ArrayBuffer };
  signal?: AbortSignal;
  /** Extra request headers (e.g. `accept`). */
  headers?: Record<string, string>;
  /** The version a write is made against, sent as `If-Match` (a 412 when another writer came first). */
  ifMatch?: number;
}

/** Where and how requests are sent. */
export class Transport {
  readonly baseUrl: string;
  readonly #fetch: FetchLike;
  readonly #authorization: string | null;

  /**
   * @param baseUrl The host's address, e.g. `http://127.0.0.1:8000`; an empty string means
   * "same origin" (paths are then requested as is, which is what the web viewer does).
   * @param fetchImpl Defaults to the global `fetch`.
   * @param token The host's admin token, sent on every request as a Bearer token.
   */
  constructor(baseUrl: string, fetchImpl?: FetchLike, token?: string) {
    this.baseUrl = baseUrl.replace(/\/+$/, '');
    this.#authorization = token ? `Bearer ${token}` : null;
    const globalFetch: FetchLike = (input, init) => fetch(input, init);
    this.#fetch = fetchImpl ?? globalFetch;
  }

  /** True when requests carry a token (a socket, which cannot, then needs a ticket). */
  get authorized(): boolean {
    return this.#authorization !== null;
  }

  /** The absolute (or same-origin) URL of a host path. */
  url(path: string, query?: RequestOptions['query']): string {
    let url = `${this.baseUrl}${path}`;
    if (query) {
      const search = new URLSearchParams();
      for (const [k, v] of Object.entries(query)) if (v !== undefined) search.set(k, String(v));
      const text = search.toString();
      if (text) url += `?${text}`;
    }
    return url;
  }

  /**
   * Sends one request and resolves with the response once its status is 2xx.
   * @throws VitrineHttpError (a subclass per status) for any other status.
   * @throws The `AbortError` of `fetch` when `signal` aborts.
   */
  async send(method: string, path: string, options: RequestOptions = {}): Promise<Response> {
    const headers: Record<string, string> = { ...(this.#authorization ? { authorization: this.#authorization } : {}), ...options.headers };
    if (options.ifMatch !== undefined) headers['if-match'] = `"${options.ifMatch}"`;
    const init: RequestInit = { method, headers };
    if (options.body !== undefined) {
      headers['content-type'] = 'application/json';
      init.body = JSON.stringify(options.body);
    } else if (options.text !== undefined) {
      headers['content-type'] = options.text.type;
      init.body = options.text.value;
    } else if (options.bytes !== undefined) {
      headers['content-type'] = options.bytes.type;
      init.body = options.bytes.value;
    }
    if (options.signal) init.signal = options.signal;
    const read = method === 'GET' || method === 'HEAD';
    for (let retries = 0; ; retries++) {
      const response = await this.#fetch(this.url(path, options.query), init);
      if (response.ok) return response;
      const wait = read && response.status === 503 && retries < BUSY_RETRIES ? retryAfterMs(response.headers.get('retry-after')) : null;
      if (wait === null) throw await toHttpError(response, `${method} ${path}`);
      await response.body?.cancel().catch(() => {});
      // A little spread, so that clients refused together do not all come back at once.
      await sleep(wait + Math.random() * 250, options.signal);
    }
  }

  /** {@link send}, then the body parsed as JSON. */
  async json<T>(method: string, path: string, options?: RequestOptions): Promise<T> {
    const response = await this.send(method, path, options);
    return (await response.json()) as T;
  }
}

async function toHttpError(response: Response, request: string): Promise<VitrineHttpError> {
  let detail = response.statusText || `HTTP ${response.status}`;
  let code: string | null = null;
  const text = await response.text().catch(() => '');
  try {
    const body = JSON.parse(text) as { detail?: unknown; code?: unknown; message?: unknown };
    if (typeof body.detail === 'string') detail = body.detail;
    else if (typeof body.message === 'string') detail = body.message;
    if (typeof body.code === 'string') code = body.code;
  } catch {
    if (text.trim()) detail = text.trim().slice(0, 500);
  }
  return httpError(response.status, detail, code, request);
}
