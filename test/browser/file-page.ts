/**
 * @module file-page
 * One browser page for the cases of a file, each case loading its own URL into it. A fresh
 * context and page per case cost Chromium a renderer process and a cold start of the viewer
 * each time (about 2.6 CPU-s a load beside a loaded suite); a navigation of the page already
 * open loads the same URL from nothing, as a new window would (a new document: the app, its
 * stage and its sockets start again from what the URL says), for about half of that. What a
 * case sees is its own load: the requests and errors it records start empty at each `open`.
 */
import type { Browser, Page, Request } from 'playwright-core';

/** A page opened by {@link FilePage.open}: the requests and uncaught errors of this load only. */
export interface LoadedPage {
  page: Page;
  requests: Request[];
  errors: string[];
}

export class FilePage {
  readonly #browser: Browser;
  readonly #options: Parameters<Browser['newPage']>[0];
  #page: Page | undefined;
  #errors: string[] = [];
  #requests: Request[] = [];

  /** `options` are the page's (viewport, device scale), as for `browser.newPage`. */
  constructor(browser: Browser, options: Parameters<Browser['newPage']>[0] = {}) {
    this.#browser = browser;
    this.#options = options;
  }

  /** Loads `url` into the file's page (opened on first use, or again if it was closed or crashed). */
  async open(url: string): Promise<LoadedPage> {
    if (!this.#page || this.#page.isClosed()) {
      const page = await this.#browser.newPage(this.#options);
      page.on('pageerror', (e) => this.#errors.push(e.message));
      page.on('request', (r) => this.#requests.push(r));
      page.on('crash', () => void page.close().catch(() => undefined));
      this.#page = page;
    }
    const loaded = { page: this.#page, requests: [] as Request[], errors: [] as string[] };
    this.#errors = loaded.errors;
    this.#requests = loaded.requests;
    await this.#page.goto(url);
    return loaded;
  }

  /** Closes the page (the file's handle on the browser closes it too when the file ends). */
  async close(): Promise<void> {
    await this.#page?.close().catch(() => undefined);
    this.#page = undefined;
  }
}
