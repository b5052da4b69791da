/**
 * @module browser-host
 * The set-up most browser test files share: a host on the viewer fixtures and the process's
 * Chromium (fork-browser.ts), made ready together before the file's tests; the host is stopped
 * after them. The browser contexts a test
 * opened are closed when it ends: a page left open goes on working through the tests after it
 * (a page in VR draws every frame of its session on the CPU), slowing them and the other files
 * running beside them.
 */
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { startHost, type HostProcess } from '../client/host-process.ts';
import { fileBrowser } from './fork-browser.ts';

/** What a file's tests use: set before the first test runs. */
export interface BrowserHost {
  host: HostProcess;
  browser: Browser;
  /** Contexts the running test opened, closed when it ends. */
  contexts: BrowserContext[];
}

/** Registers the file's beforeAll and afterAll; `hostArgs` go to `vitrine serve`, `scale` to fileBrowser. */
export function browserAndHost(hostArgs: string[] = [], scale = 1): BrowserHost {
  const session = { contexts: [] } as unknown as BrowserHost;
  beforeAll(async () => {
    [session.host, session.browser] = await Promise.all([startHost(hostArgs), fileBrowser(scale)]);
  });
  afterEach(async () => {
    await Promise.all(session.contexts.splice(0).map((context) => context.close()));
  });
  afterAll(async () => {
    await session.browser?.close();
    await session.host?.close();
  });
  return session;
}
