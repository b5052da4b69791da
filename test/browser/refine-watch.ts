/**
 * @module refine-watch
 * What a page showed while it drew a result coarse first, read back in order: each change of
 * the "Coarse preview" note's visibility or of one stat, recorded in the page from its first
 * script on, and a page opened so. Shared by the coarse-first browser tests.
 */
import type { Browser, Page } from 'playwright-core';
import { STATE_WAIT_MS } from '../helpers/wait-for.ts';

/** One thing the page showed: whether the note was up, and the stat's text. */
export interface Seen {
  note: boolean;
  stat: string;
}

/** Records, from the page's first script on, each change of the note or of stat `key`; call before `goto`. */
export async function watchRefinement(page: Page, key: string): Promise<() => Promise<Seen[]>> {
  await page.addInitScript((stat: string) => {
    const seen: { note: boolean; stat: string }[] = [];
    (window as unknown as { seen: typeof seen }).seen = seen;
    new MutationObserver(() => {
      const note = document.querySelector<HTMLElement>('[data-testid=refine-note]');
      const value = document.querySelector(`[data-testid=stats] [data-stat=${stat}] dd`)?.textContent ?? '';
      const now = { note: !!note && !note.hidden, stat: value };
      const last = seen.at(-1);
      if (!last || last.note !== now.note || last.stat !== now.stat) seen.push(now);
    }).observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
  }, key);
  return () => page.evaluate(() => (window as unknown as { seen: Seen[] }).seen);
}

/** Resolves once the page's request ended done or from the cache. */
export async function settled(page: Page): Promise<void> {
  await page.waitForFunction(() => ['done', 'cached'].includes(document.querySelector<HTMLElement>('[data-testid=job-state]')?.dataset.state ?? ''), null, {
    timeout: STATE_WAIT_MS,
  });
}

/**
 * Opens `url` in a new page of `browser`, watching stat `key` (watchRefinement) from its first
 * script on; `listen` sees the page before it loads (to record its requests).
 */
export async function openWatching(
  browser: Browser,
  url: string,
  key: string,
  listen: (page: Page) => void,
): Promise<{ page: Page; seen: () => Promise<Seen[]> }> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  listen(page);
  const seen = await watchRefinement(page, key);
  await page.goto(url);
  return { page, seen };
}
