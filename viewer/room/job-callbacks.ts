/**
 * @module job-callbacks
 * What the viewer does as a request's job starts and reports progress: the job panel shows
 * its id and state (cached or running) and each message, the loading pill the latest one, and
 * the room follower learns that a room cache hit settled the request.
 */
import type { LoadOptions } from '../../core/client/load-job.ts';
import type { JobView } from '../panels/job-view.ts';
import type { RequestContext } from './latest-request.ts';
import type { RoomFollower } from './room-follower.ts';
import type { StageOverlay } from '../stage/stage-overlay.ts';

export interface JobCallbackViews {
  job: JobView;
  overlay: StageOverlay;
  follower: RoomFollower;
}

/** `onStart` and `onProgress` of one request; `onCached` hears whether the start was a cache hit. */
export function jobCallbacks(
  context: RequestContext,
  views: JobCallbackViews,
  request: { functionName: string | null; params: Record<string, unknown> },
  onCached: (cached: boolean) => void,
): Pick<LoadOptions, 'onStart' | 'onProgress'> {
  return {
    onStart: (start) => {
      if (!context.isCurrent()) return;
      const cached = start.status === 'done';
      onCached(cached);
      if (cached && request.functionName) views.follower.settled(request.functionName, request.params, true);
      views.job.setJobId(start.job_id);
      views.job.set(cached ? 'cached' : 'running');
    },
    onProgress: (message) => {
      if (!context.isCurrent()) return;
      views.job.addMessage(message);
      views.overlay.loadingText(message.text);
    },
  };
}
