/**
 * @module page-load-watch
 * What one load of a page asked and said, for a test to name when the page never gets ready:
 * the requests that failed or answered 4xx/5xx, those still without an answer, and the page's
 * warnings and errors (but the 4xx already named and SwiftShader's performance notes). Only
 * requests started while watching count, so a reload's cut requests of the load before it
 * are not told as this load's.
 */
import type { ConsoleMessage, Page, Request, Response } from 'playwright-core';

const NOISE = /Failed to load resource|GL Driver Message \(OpenGL, Performance/;

export class PageLoadWatch {
  readonly #page: Page;
  readonly #asked = new WeakSet<Request>();
  readonly #pending = new Set<Request>();
  readonly #troubles: string[] = [];
  readonly #said: string[] = [];

  readonly #onRequest = (request: Request) => {
    this.#asked.add(request);
    this.#pending.add(request);
  };
  readonly #onFinished = (request: Request) => void this.#pending.delete(request);
  readonly #onFailed = (request: Request) => {
    if (!this.#asked.has(request)) return;
    this.#pending.delete(request);
    this.#troubles.push(`${request.url()} failed: ${request.failure()?.errorText}`);
  };
  readonly #onResponse = (response: Response) => {
    if (this.#asked.has(response.request()) && response.status() >= 400) this.#troubles.push(`${response.url()} answered ${response.status()}`);
  };
  readonly #onConsole = (message: ConsoleMessage) => {
    if ((message.type() === 'warning' || message.type() === 'error') && !NOISE.test(message.text())) this.#said.push(`${message.type()}: ${message.text()}`);
  };

  constructor(page: Page) {
    this.#page = page;
    page.on('request', this.#onRequest);
    page.on('requestfinished', this.#onFinished);
    page.on('requestfailed', this.#onFailed);
    page.on('response', this.#onResponse);
    page.on('console', this.#onConsole);
  }

  /** The account so far, with `more` (what the page itself says of its state) in it. */
  account(more: string): string {
    const pending = [...this.#pending].map((request) => request.url());
    return [
      this.#troubles.length ? this.#troubles.join('; ') : 'no request failed',
      `still waiting for: ${pending.length ? pending.join(', ') : 'nothing'}`,
      more,
      `the page said: ${this.#said.length ? this.#said.slice(-8).join(' | ') : 'nothing'}`,
    ].join('; ');
  }

  stop(): void {
    this.#page.off('request', this.#onRequest);
    this.#page.off('requestfinished', this.#onFinished);
    this.#page.off('requestfailed', this.#onFailed);
    this.#page.off('response', this.#onResponse);
    this.#page.off('console', this.#onConsole);
  }
}
