/**
 * @module neuroglancer-ready
 * A stock Neuroglancer page opened at a room's state URL, waited on until the viewer says every
 * layer is loaded and drawn: the panels it then shows, or, when a load stalls, an account of
 * what that load asked, said and held.
 */
import type { Page } from 'playwright-core';
import { STATE_WAIT_MS } from '../helpers/wait-for.ts';
import { PageLoadWatch } from './page-load-watch.ts';

/** A panel of the viewer: the class Neuroglancer draws it with, and its box on the page. */
export interface PanelBox {
  kind: string;
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * How long the first load may take to be ready: about 2.5 s alone and 9 s beside three busy
 * loops on two cores. Past it the page is loaded once more, with the whole wait.
 */
const FIRST_LOAD_MS = 45_000;

/** Whether Neuroglancer says every one of `layers` layers is loaded and drawn, waiting up to `timeout` ms. */
async function becameReady(page: Page, layers: number, timeout: number): Promise<boolean> {
  return page
    .waitForFunction(
      (count) => {
        const viewer = (window as unknown as { viewer?: { layerManager: { managedLayers: unknown[] }; isReady(): boolean } }).viewer;
        return viewer !== undefined && viewer.layerManager.managedLayers.length === count && viewer.isReady();
      },
      layers,
      { timeout, polling: 100 },
    )
    .then(
      () => true,
      () => false,
    );
}

/** Each layer's source readiness as Neuroglancer says it. */
function layerStates(page: Page): Promise<string> {
  return page
    .evaluate(() => {
      type Managed = { name: string; isReady(): boolean };
      const viewer = (window as unknown as { viewer?: { layerManager: { managedLayers: Managed[] } } }).viewer;
      if (!viewer) return 'no viewer';
      return viewer.layerManager.managedLayers.map((layer) => `${layer.name}: ${layer.isReady() ? 'sources ready' : 'sources loading'}`).join(', ');
    })
    .catch((reason: unknown) => `layers unreadable: ${String(reason)}`);
}

/** What the viewer's status line says (Neuroglancer tells a layer it could not make there, not on the console). */
function statusText(page: Page): Promise<string> {
  return page
    .evaluate(() => document.getElementById('neuroglancer-status-container')?.textContent?.trim() || 'nothing')
    .catch((reason: unknown) => `status unreadable: ${String(reason)}`);
}

/** The layers a stalled load has, as the viewer, its status line and the host's state say them. */
async function stalledLayers(page: Page, stateUrl: string): Promise<string> {
  const served = await fetch(stateUrl)
    .then((response) => response.json() as Promise<{ layers: { name: string }[] }>)
    .then((state) => state.layers.map((layer) => layer.name).join(', '))
    .catch((reason: unknown) => `unreadable: ${String(reason)}`);
  return `layers: ${await layerStates(page)}; status line: ${await statusText(page)}; the host's state names: ${served}`;
}

/**
 * The viewer's rendered panels, once Neuroglancer says every layer is loaded and drawn, the
 * Neuroglancer page at `viewerUrl` opened on the state at `stateUrl` (`#!<stateUrl>`).
 * In about one clean-clone run of 25 a first load never got ready (alone, and beside busy
 * loops, it always does): that stall is told, with what the page still waited for and said,
 * the layers the viewer holds and those the host's state names, and the page is opened again
 * from the state's URL (a reload would not do: by then Neuroglancer has written the state it
 * holds into the page's own URL, and would load that again). A second stall fails the test,
 * naming both. The page errors of an abandoned first load (`errors`, which the test holds to
 * be none) are told with it and count no more: only the page that is checked must have none.
 */
export async function readyPanels(page: Page, viewerUrl: string, stateUrl: string, layers: number, errors: string[]): Promise<PanelBox[]> {
  const pageUrl = `${viewerUrl}#!${stateUrl}`;
  const first = new PageLoadWatch(page);
  await page.goto(pageUrl);
  const ready = await becameReady(page, layers, FIRST_LOAD_MS);
  first.stop();
  if (!ready) {
    const told = first.account(await stalledLayers(page, stateUrl));
    const said = JSON.stringify(errors);
    console.log(`Neuroglancer was not ready ${FIRST_LOAD_MS / 1000} s after its first load (${told}; page errors: ${said}); opening the state's URL again`);
    errors.length = 0;
    await page.goto('about:blank');
    const again = new PageLoadWatch(page);
    await page.goto(pageUrl);
    if (!(await becameReady(page, layers, STATE_WAIT_MS))) {
      throw new Error(`Neuroglancer never drew every layer, twice (first: ${told}; again: ${again.account(await stalledLayers(page, stateUrl))})`);
    }
    again.stop();
  }
  // A frame after ready: what was ready is on the canvas.
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  return page.evaluate(() => {
    const viewer = (window as unknown as { viewer: { display: { panels: Set<{ element: HTMLElement; constructor: { name: string } }> } } }).viewer;
    return [...viewer.display.panels].map((panel) => {
      const box = panel.element.getBoundingClientRect();
      return { kind: panel.constructor.name, x: box.x, y: box.y, width: box.width, height: box.height };
    });
  });
}
