/**
 * @module first-frame
 * When a page first drew a given specimen: once the watch is installed, the returned function
 * resolves with the page's clock (ms since the epoch) at the first stage frame drawn while the
 * specimen titled `title` is on the stage. Watches the stage canvas's frame counter, so nothing
 * in the page is changed for it.
 */
import type { Page } from 'playwright-core';

export async function watchFirstFrame(page: Page, title: string, timeoutMs = 120_000): Promise<() => Promise<number>> {
  await page.evaluate((want) => {
    const w = window as unknown as { firstFrameAt?: number };
    delete w.firstFrameAt;
    const canvas = document.querySelector('canvas.stage-canvas');
    if (!canvas) throw new Error('the page has no stage canvas');
    const observer = new MutationObserver(() => {
      const stage = document.querySelector<HTMLElement>('[data-testid=stage]');
      const shown =
        document.querySelector('[data-testid=specimen-title]')?.textContent === want && stage?.dataset.shown !== undefined && stage.dataset.shown !== '';
      if (!shown || stage.classList.contains('busy')) return;
      w.firstFrameAt = Date.now();
      observer.disconnect();
    });
    observer.observe(canvas, { attributes: true, attributeFilter: ['data-frames'] });
  }, title);
  return async () => {
    const handle = await page.waitForFunction(() => (window as unknown as { firstFrameAt?: number }).firstFrameAt ?? null, null, {
      timeout: timeoutMs,
    });
    return (await handle.jsonValue()) as number;
  };
}
