/**
 * @module editing-followers
 * The followers of `npm run bench editing`: each reads the room's event stream over real HTTP
 * (what a page or a headset following the room reads) and notes when each `labels` event
 * arrived, by the edit's log seq, so the bench can put every follower's arrival beside the
 * moment the edit was sent.
 */
import { SseParser } from '../../core/client/sse-parser.ts';

export interface Follower {
  /** When each `labels` event arrived (performance.now()), by seq. */
  arrived: Map<number, number>;
  close(): void;
}

/**
 * Opens one follower of `eventsUrl`, resolved once the stream answered. A connection the host
 * closed as the stream was asked (seen twice at load 15-27, after a minute-long read) is said
 * and asked again once; a host that is gone fails the second ask.
 */
export async function follow(eventsUrl: string): Promise<Follower> {
  const controller = new AbortController();
  const ask = () => fetch(eventsUrl, { headers: { accept: 'text/event-stream' }, signal: controller.signal });
  const response = await ask().catch((error: unknown) => {
    process.stderr.write(`editing: a follower's stream was refused (${String((error as Error).cause ?? error)}): asked again\n`);
    return ask();
  });
  if (response.status !== 200 || !response.body) throw new Error(`GET ${eventsUrl} answered ${response.status}`);
  const arrived = new Map<number, number>();
  const body = response.body;
  void (async () => {
    const parser = new SseParser();
    const decoder = new TextDecoder();
    try {
      for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
        const at = performance.now();
        for (const message of parser.push(decoder.decode(chunk, { stream: true }))) {
          if (message.event !== 'labels') continue;
          const { seq } = JSON.parse(message.data) as { seq: number };
          if (!arrived.has(seq)) arrived.set(seq, at);
        }
      }
    } catch {
      // Closed by the bench.
    }
  })();
  return { arrived, close: () => controller.abort() };
}

/** Resolves once every follower has the events of every seq in `seqs`, or after `timeoutMs` (then some are missing). */
export async function allArrived(followers: Follower[], seqs: number[], timeoutMs: number): Promise<void> {
  const until = performance.now() + timeoutMs;
  while (performance.now() < until) {
    if (followers.every((f) => seqs.every((seq) => f.arrived.has(seq)))) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
