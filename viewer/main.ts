/**
 * @module main
 * The viewer's browser entry (bundled by core/assets/browser-bundles.ts into `/viewer/app.js` and `/viewer/app.css`).
 */
import './styles.css';
import './layers/volume/data-tools.css';
import './room/layers.css';
import './time/time-channels.css';
import { ViewerApp } from './viewer-app.ts';

const root = document.getElementById('app');
if (root) {
  try {
    new ViewerApp(root).start();
  } catch (error) {
    root.textContent = `The viewer failed to start: ${error instanceof Error ? error.message : String(error)}`;
    root.classList.add('fatal');
  }
}
