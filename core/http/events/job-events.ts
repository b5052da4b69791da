/**
 * @module job-events
 * One job's progress as Server-Sent Events (`GET /api/jobs/{id}/events`): an
 * event `progress` per message (`id:` its seq, data the message JSON), then `done` or `error`
 * (data: {job_id, status, error}) and the stream closes. Built only on the JobService
 * interface, so it works the same on one host and on every host of a Redis service:
 * - it watches the job before its first read, so no change falls between the two;
 * - each nudge re-reads `progress(id, lastSentSeq)`; reads are serialized (never two in
 *   flight, nudges meanwhile coalesce into one more read), so events go out in seq order;
 * - nothing else is read: a JobService nudges every change (a Redis service also nudges every
 *   watcher once its subscription is back after a reconnection), so an open stream of a quiet
 *   job costs nothing. `rereadMs` adds a re-read period for a service that may lose nudges.
 * A terminal status comes with every message the job ever reports (the job's end marker), so
 * sending the messages of that last read and then the end event loses nothing. Sends wait for
 * the socket to drain, so a client that stops reading holds the job's messages (kept by the
 * job anyway), not copies; one more than 1 MiB behind is dropped (stream-backlog.ts) and
 * resumes with Last-Event-ID.
 */
import type { FastifyBaseLogger, FastifyReply } from 'fastify';
import type { JobEnd, ProgressResponse } from '../../wire/wire-types.ts';
import type { JobService } from '../../jobs/job-service.ts';
import { dropIfBehind } from '../../events/stream-backlog.ts';
import type { StreamScope } from '../../events/stream-scope.ts';

export interface JobStreamOptions {
  /** Messages with seq above this are sent (from `Last-Event-ID` or `?since`; -1: all). */
  since: number;
  log: FastifyBaseLogger;
  /** Re-reads the job this often even without a nudge. @defaultValue none */
  rereadMs?: number;
}

/**
 * Streams job `id` on `reply` until it ends or the client goes away.
 * @throws SPC_ERR_JOB_NOT_FOUND (and any other failure of the first read) before the response
 * becomes an event stream, so the client gets the JSON error body with its status.
 */
export async function streamJob(reply: FastifyReply, scope: StreamScope, jobs: JobService, id: string, options: JobStreamOptions): Promise<void> {
  let lastSeq = options.since;
  // The first read holds the lock: nudges until it is delivered only ask for one more read.
  let reading = true;
  let again = false;

  /** Sends what `progress` adds; true once the end event is out and the stream closed. */
  const deliver = async (progress: ProgressResponse): Promise<boolean> => {
    for (const message of progress.messages) {
      if (message.seq <= lastSeq) continue;
      if (scope.closed) return true;
      if (dropIfBehind(reply)) {
        options.log.debug({ job: id }, 'job event stream dropped: its client stopped reading');
        scope.close();
        return true;
      }
      await reply.sse.send({ event: 'progress', id: String(message.seq), data: message });
      lastSeq = message.seq;
    }
    if (progress.status === 'running' || scope.closed) return scope.closed;
    const end: JobEnd = { job_id: id, status: progress.status, error: progress.error };
    await reply.sse.send({ event: progress.status, data: end });
    reply.sse.close();
    scope.close();
    return true;
  };

  /** Reads and delivers while nudges keep coming; the caller holds the lock. */
  const run = async (first?: ProgressResponse): Promise<void> => {
    try {
      let next = first;
      do {
        let progress: ProgressResponse;
        if (next) {
          progress = next;
          next = undefined;
        } else {
          again = false;
          progress = await jobs.progress(id, lastSeq);
        }
        if (scope.closed || (await deliver(progress))) return;
      } while (again && !scope.closed);
    } catch (error) {
      // A read that fails mid-stream (the job swept, Redis unreachable) ends the stream: the
      // client reconnects with Last-Event-ID and resumes, or learns the job is gone (404).
      options.log.debug({ err: error, job: id }, 'job event stream ended by a failed read');
      reply.sse.close();
      scope.close();
    } finally {
      reading = false;
    }
  };

  const pump = (): void => {
    if (scope.closed) return;
    if (reading) {
      again = true;
      return;
    }
    reading = true;
    void run();
  };

  scope.add(jobs.watch(id, pump));
  // Headers are written lazily on the first send, so a failing first read still answers
  // with the JSON error (404 for an unknown job) rather than an event stream.
  const first = await jobs.progress(id, options.since);
  if (scope.closed) return;
  reply.sse.keepAlive();
  // Commits the 200 and starts the heartbeat even when there is nothing to send yet; node
  // holds a written head back until the first body byte, so it is flushed too. The client
  // then knows the stream is open.
  reply.sse.sendHeaders();
  reply.raw.flushHeaders();
  if (options.rereadMs) {
    const timer = setInterval(pump, options.rereadMs);
    timer.unref();
    scope.add(() => clearInterval(timer));
  }
  await run(first);
}
