/**
 * @module request-failure
 * How the viewer shows a request that did not end in data: cancelled, parameters the host
 * refused (also next to the panel), a failed job, another host answer, or a host out of reach;
 * each but the refusal offers Retry.
 */
import { InvalidRequestError, isAbortError, VitrineHttpError, VitrineJobError } from '../../core/client/errors.ts';
import { h } from '../dom.ts';
import type { JobView } from './job-view.ts';
import type { ParamPanel } from './params/param-panel.ts';
import type { StageOverlay } from '../stage/stage-overlay.ts';

/** The views a failure is shown in, and what Retry does. */
export interface FailureViews {
  job: JobView;
  overlay: StageOverlay;
  panel: ParamPanel | null;
  retry: () => void;
}

/**
 * Whether `error` is the host refusing to let whoever the page is now read a room: 404
 * `SPC_ERR_ROOM_NOT_VISIBLE` (a closed room, which answers as if it were not there), or 401
 * (the room wants someone signed in, or the kept token is no longer known).
 */
export function isRoomClosed(error: unknown): boolean {
  if (!(error instanceof VitrineHttpError)) return false;
  return error.status === 401 || (error.status === 404 && error.code === 'SPC_ERR_ROOM_NOT_VISIBLE');
}

/** Shows `error` (what a request rejected with) in the job view and over the stage. */
export function showFailure(error: unknown, views: FailureViews): void {
  const { job, overlay, panel } = views;
  const retry = (): HTMLElement => h('button', { class: 'button', type: 'button', onclick: views.retry }, 'Retry');
  if (isAbortError(error)) {
    job.set('cancelled', 'The request was cancelled; the host stopped the job.');
    overlay.notice('Cancelled', 'The request was cancelled. Change a parameter or press Retry to ask again.', retry());
    return;
  }
  job.set('error', describeError(error));
  if (error instanceof InvalidRequestError) {
    panel?.setHostError(error.detail);
    overlay.error('Invalid parameters', error.detail);
  } else if (error instanceof VitrineJobError) {
    overlay.error('The job failed', error.error, retry());
  } else if (error instanceof VitrineHttpError) {
    overlay.error(`The host answered ${error.status}`, error.detail, retry());
  } else {
    overlay.error('Something went wrong', describeError(error), retry());
  }
}

/** One line for people: the host's detail, the job's error, or what went wrong locally. */
export function describeError(error: unknown): string {
  if (error instanceof VitrineHttpError) return error.detail;
  if (error instanceof VitrineJobError) return error.error;
  if (error instanceof TypeError && /fetch/i.test(error.message)) return 'The host cannot be reached.';
  return error instanceof Error ? error.message : String(error);
}
