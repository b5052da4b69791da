/**
 * @module browser-host
 * The set-up most browser test files share: a host on the viewer fixtures and a Chromium,
 * started together before the file's tests, and stopped after them with every browser context
 * the tests opened.
 */
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { startHost, type HostProcess } from '../client/host-process.ts';
import { launchBrowser } from './browser-session.ts';

/** What a file's tests use: set before the first test runs. */
export interface BrowserHost {
  host: HostProcess;
  browser: Browser;
  /** Contexts the tests opened, closed after the file. */
  contexts: BrowserContext[];
}

/** Registers the file's beforeAll and afterAll; `hostArgs` go to `vitrine serve`. */
export function browserAndHost(hostArgs: string[] = []): BrowserHost {
  const session = { contexts: [] } as unknown as BrowserHost;
  beforeAll(async () => {
    [session.host, session.browser] = await Promise.all([startHost(hostArgs), launchBrowser()]);
  });
  afterAll(async () => {
    await Promise.all(session.contexts.map((context) => context.close()));
    await session.browser?.close();
    await session.host?.close();
  });
  return session;
}
