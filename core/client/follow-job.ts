/**
 * @module follow-job
 * followJob: one job's events (`GET /api/jobs/{id}/events`) as an async iterator: a
 * `progress` event per message, each once and in seq order, then `done` or `error`, after
 * which the iteration ends. A dropped connection is resumed with `Last-Event-ID` (the last
 * seq received), so no message is lost or repeated across reconnections.
 *
 * @example
 * for await (const e of client.followJob(jobId, { signal })) {
 *   if (e.event === 'progress') console.log(e.data.seq, e.data.text);
 *   else console.log('ended', e.data.status, e.data.error);
 * }
 */
import { followEvents, type FollowOptions } from './follow-events.ts';
import type { Transport } from './transport.ts';
import type { JobEnd, JobEvent, ProgressMessage } from '../wire/wire-types.ts';

/** Options of `followJob`. */
export interface FollowJobOptions extends FollowOptions {
  /** Resume after this seq (the highest one already seen). @defaultValue -1, every message */
  since?: number;
}

/**
 * Yields the job's events until its end event.
 * @throws NotFoundError for an unknown (or swept) job; the last failure once `maxRetries`
 * connections in a row failed; an `AbortError` when `options.signal` aborts.
 */
export async function* followJob(transport: Transport, jobId: string, options: FollowJobOptions = {}): AsyncGenerator<JobEvent, void, undefined> {
  let lastSeq = options.since ?? -1;
  const route = {
    path: `/api/jobs/${encodeURIComponent(jobId)}/events`,
    headers: (): Record<string, string> => (lastSeq >= 0 ? { 'last-event-id': String(lastSeq) } : {}),
  };
  for await (const message of followEvents(transport, route, options)) {
    if (message.event === 'progress') {
      const data = JSON.parse(message.data) as ProgressMessage;
      if (data.seq <= lastSeq) continue;
      lastSeq = data.seq;
      yield { event: 'progress', data };
    } else if (message.event === 'done' || message.event === 'error') {
      yield { event: message.event, data: JSON.parse(message.data) as JobEnd };
      return;
    }
  }
}
