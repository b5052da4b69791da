/**
 * @module stage-or-problem
 * The page's stage, or why there is none: a browser that gives no WebGL context leaves the
 * stage pane marked `data-webgl="unavailable"` and the page works on without drawing.
 */
import { Stage, WebGLUnavailableError } from './stage.ts';

/** A stage in `host` (the layout's stage host), or null with the browser's reason, marked on `pane`. */
export function stageOrProblem(host: HTMLElement, pane: HTMLElement): { stage: Stage | null; problem: string | null } {
  try {
    return { stage: new Stage(host), problem: null };
  } catch (error) {
    if (!(error instanceof WebGLUnavailableError)) throw error;
    pane.dataset.webgl = 'unavailable';
    return { stage: null, problem: error.message };
  }
}
