/**
 * @module fork-browser
 * One Chromium per test process, lent to each browser test file in turn. The suite runs many
 * files in one process (vitest forks, isolate off); launching a Chromium per file cost each
 * file its browser and GPU processes' start again. A file gets a handle on the process's
 * Chromium whose `close()` closes only the contexts the file opened through it (what a file
 * leaves open is closed when it ends too): each file and test still has contexts of its own.
 * The Chromium itself ends with the process: Playwright closes it on the SIGTERM that stops a
 * vitest fork and kills it on exit, and Chromium quits once its pipe to the process closes.
 * Benchmarks (plain node) launch their own with launchBrowser.
 */
import type { Browser, BrowserContext } from 'playwright-core';
import { atFileEnd } from '../helpers/file-end.ts';
import { launchBrowser } from './browser-session.ts';

let shared: Promise<Browser> | undefined;
/** Contexts the running file opened, closed when it closes its handle or ends. */
const opened = new Set<BrowserContext>();

function processChromium(): Promise<Browser> {
  shared ??= launchBrowser().then(
    (browser) => {
      // A Chromium that crashed or was closed is launched again for the next file.
      browser.on('disconnected', () => (shared = undefined));
      return browser;
    },
    (error: unknown) => {
      shared = undefined;
      throw error;
    },
  );
  return shared;
}

function track(context: BrowserContext): BrowserContext {
  opened.add(context);
  context.on('close', () => opened.delete(context));
  return context;
}

async function closeOpened(): Promise<void> {
  await Promise.all([...opened].map((context) => context.close().catch(() => undefined)));
  opened.clear();
}

atFileEnd(closeOpened);

/**
 * The process's Chromium for this file: `close()` closes what the file opened, not the browser.
 * Its pages draw at `scale` device pixels per CSS pixel unless opened with a deviceScaleFactor
 * of their own (DRAW_SCALE in browser-session.ts says when a file may draw at less than 1).
 */
export async function fileBrowser(scale = 1): Promise<Browser> {
  const browser = await processChromium();
  const own: Partial<Browser> = {
    newContext: async (options) => track(await browser.newContext({ deviceScaleFactor: scale, ...options })),
    newPage: async (options) => {
      const page = await browser.newPage({ deviceScaleFactor: scale, ...options });
      track(page.context());
      return page;
    },
    close: closeOpened,
  };
  return new Proxy(browser, {
    get(target, name) {
      if (name in own) return own[name as keyof typeof own];
      const value: unknown = Reflect.get(target, name, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
