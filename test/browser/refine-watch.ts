/**
 * @module refine-watch
 * What a page showed while it drew a result coarse first, read back in order: each change of
 * the "Coarse preview" note's visibility or of a stat, recorded in the page from the first
 * script of each load on; and one page for a file's cases, each loading its URL into it so
 * watched. Shared by the coarse-first browser tests.
 */
import type { Browser, Page } from 'playwright-core';
import { STATE_WAIT_MS } from '../helpers/wait-for.ts';

/** One thing the page showed: whether the note was up, and the stat's text. */
export interface Seen {
  note: boolean;
  stat: string;
}

/** Records, from the first script of every load on, each change of the note or of any stat; call before the first `goto`. */
async function watchRefinement(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const seen: { note: boolean; stats: Record<string, string> }[] = [];
    (window as unknown as { seen: typeof seen }).seen = seen;
    new MutationObserver(() => {
      const note = document.querySelector<HTMLElement>('[data-testid=refine-note]');
      const stats: Record<string, string> = {};
      for (const row of document.querySelectorAll<HTMLElement>('[data-testid=stats] [data-stat]')) {
        stats[row.dataset.stat!] = row.querySelector('dd')?.textContent ?? '';
      }
      const now = { note: !!note && !note.hidden, stats };
      if (JSON.stringify(seen.at(-1)) !== JSON.stringify(now)) seen.push(now);
    }).observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
  });
}

/** What the page's current load showed of the note and of stat `key`: each change once, in order. */
async function seenOf(page: Page, key: string): Promise<Seen[]> {
  const all = await page.evaluate(() => (window as unknown as { seen: { note: boolean; stats: Record<string, string> }[] }).seen);
  const shown: Seen[] = [];
  for (const { note, stats } of all) {
    const now = { note, stat: stats[key] ?? '' };
    const last = shown.at(-1);
    if (!last || last.note !== now.note || last.stat !== now.stat) shown.push(now);
  }
  return shown;
}

/** Resolves once the page's request ended done or from the cache. */
export async function settled(page: Page): Promise<void> {
  await page.waitForFunction(() => ['done', 'cached'].includes(document.querySelector<HTMLElement>('[data-testid=job-state]')?.dataset.state ?? ''), null, {
    timeout: STATE_WAIT_MS,
  });
}

/** Listens to one load of the page (`page.on` for it alone). */
export type LoadListener = (on: Page['on']) => void;

/**
 * One 1280x800 page for the coarse-first cases of a file, each `open` a new load of its URL,
 * watched from its first script on (file-page.ts says why one page rather than a context a
 * case): what `listen` hears, and what `seen` reads, is of that load only.
 */
export class WatchingPage {
  readonly #browser: Browser;
  #page: Page | undefined;
  #off: (() => void)[] = [];

  constructor(browser: Browser) {
    this.#browser = browser;
  }

  /** Loads `url` watching stat `key` (watchRefinement); `listen` sees the page before it loads (to record its requests). */
  async open(url: string, key: string, listen: LoadListener): Promise<{ page: Page; seen: () => Promise<Seen[]> }> {
    if (!this.#page || this.#page.isClosed()) {
      this.#page = await this.#browser.newPage({ viewport: { width: 1280, height: 800 } });
      await watchRefinement(this.#page);
    }
    const page = this.#page;
    for (const off of this.#off.splice(0)) off();
    listen(((event: 'request', handler: () => void) => {
      page.on(event, handler);
      this.#off.push(() => page.off(event, handler));
      return page;
    }) as Page['on']);
    await page.goto(url);
    return { page, seen: () => seenOf(page, key) };
  }
}
