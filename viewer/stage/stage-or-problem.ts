/**
 * @module stage-or-problem
 * The page's stage, or why there is none: a browser that gives no WebGL context leaves the
 * stage pane marked `data-webgl="unavailable"` and the page works on without drawing.
 */
import type { Layout } from '../layout.ts';
import { Stage, WebGLUnavailableError } from './stage.ts';

/** A stage in the layout's stage host, or null with the browser's reason. */
export function stageOrProblem(layout: Layout): { stage: Stage | null; problem: string | null } {
  try {
    return { stage: new Stage(layout.stageHost), problem: null };
  } catch (error) {
    if (!(error instanceof WebGLUnavailableError)) throw error;
    layout.stagePane.dataset.webgl = 'unavailable';
    return { stage: null, problem: error.message };
  }
}
