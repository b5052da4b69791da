/**
 * @module events-proxy
 * Test helper: a real HTTP proxy on loopback in front of a host, to put the clients' event
 * followers through what networks and older hosts do: it forwards every request as is, and
 * per mode it answers the event routes with the 404 JSON body of a host that has no such
 * route, drops every event stream connection at once, or cuts the first event stream after a
 * number of events (a connection lost mid-stream). It records each event stream request.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type ProxyMode =
  | { kind: 'pass' }
  | { kind: 'no-events' }
  | { kind: 'drop-events' }
  /** The first `connections` event streams are cut after `events` events each. */
  | { kind: 'cut-events'; events: number; connections?: number };

export interface EventsProxy {
  baseUrl: string;
  /** Every event stream request: its path and Last-Event-ID. */
  streams: { path: string; lastEventId: string | null }[];
  /** Every request path (with its query). */
  requests: string[];
  close(): Promise<void>;
}

const isEvents = (url: string) => /\/events(\?|$)/.test(url);

export async function startEventsProxy(target: string, mode: ProxyMode): Promise<EventsProxy> {
  const upstream = new URL(target);
  const streams: EventsProxy['streams'] = [];
  const requests: string[] = [];
  let cut = 0;
  const server = http.createServer((req, res) => {
    const url = req.url ?? '/';
    requests.push(url);
    if (isEvents(url)) {
      const header = req.headers['last-event-id'];
      streams.push({ path: url, lastEventId: typeof header === 'string' ? header : null });
      if (mode.kind === 'no-events') {
        const body = JSON.stringify({ status_code: 404, detail: `no route GET ${url}`, code: 'SPC_ERR_ROUTE_NOT_FOUND' });
        res.writeHead(404, { 'content-type': 'application/json' }).end(body);
        return;
      }
      if (mode.kind === 'drop-events') {
        req.socket.destroy();
        return;
      }
    }
    const cutAfter = mode.kind === 'cut-events' && isEvents(url) && cut < (mode.connections ?? 1) ? mode.events : null;
    if (cutAfter !== null) cut++;
    const forward = http.request(
      { host: upstream.hostname, port: upstream.port, path: url, method: req.method, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        res.flushHeaders();
        let seen = 0;
        let last = '';
        answer.on('data', (chunk: Buffer) => {
          if (cutAfter === null) {
            res.write(chunk);
            return;
          }
          // Counts blank lines (event ends), also one split between two chunks.
          const text = last + chunk.toString('utf8');
          seen += text.split('\n\n').length - 1;
          last = text.endsWith('\n') && !text.endsWith('\n\n') ? '\n' : '';
          if (seen < cutAfter) {
            res.write(chunk);
            return;
          }
          // The events written so far reach the client; then the connection is gone.
          answer.destroy();
          res.write(chunk, () => req.socket.destroy());
        });
        answer.on('end', () => res.end());
        answer.on('error', () => res.destroy());
      },
    );
    forward.on('error', () => res.destroy());
    res.on('close', () => forward.destroy());
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    streams,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
