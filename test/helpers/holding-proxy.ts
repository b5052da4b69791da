/**
 * An HTTP proxy on loopback that can hold an answer's body back: the status, the headers and
 * the first byte go out at once, the rest only once the test releases it. It shows what a
 * client does while an answer is still arriving (without timing anything), and logs what
 * happened in order: each request as it arrives, each held answer's headers and release.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface HoldRule {
  /** Which requests' answers to hold (by path and query). */
  match(url: string): boolean;
  /** Called when the whole body has come from upstream: the rest goes on once its promise resolves. */
  until(): Promise<unknown>;
  /** The log's name for the answer. */
  name: string;
}

export interface HoldingProxy {
  url: string;
  /** In order: `asked <url>` per request, `headers <name>` and `released <name>` per held answer. */
  log: string[];
  /** Content-Length of each held answer, by name (null when it did not say). */
  lengths: Map<string, number | null>;
  /** Resolves once a request whose url matches has arrived (at once if one has). */
  asked(match: (url: string) => boolean): Promise<void>;
  close(): Promise<void>;
}

export function startHoldingProxy(targetUrl: string, rules: HoldRule[]): Promise<HoldingProxy> {
  const target = new URL(targetUrl);
  const log: string[] = [];
  const lengths = new Map<string, number | null>();
  const waiting: { match: (url: string) => boolean; resolve: () => void }[] = [];
  const seen: string[] = [];
  const asked = (match: (url: string) => boolean): Promise<void> =>
    seen.some(match) ? Promise.resolve() : new Promise((resolve) => waiting.push({ match, resolve }));
  const server = http.createServer((req, res) => {
    const url = req.url ?? '/';
    const readable = decodeURIComponent(url);
    log.push(`asked ${readable}`);
    seen.push(readable);
    for (const w of waiting.filter((w) => w.match(readable))) w.resolve();
    const rule = rules.find((r) => r.match(readable));
    const upstream = http.request({ host: target.hostname, port: target.port, method: req.method, path: url, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      if (!rule) {
        answer.pipe(res);
        return;
      }
      log.push(`headers ${rule.name}`);
      lengths.set(rule.name, answer.headers['content-length'] === undefined ? null : Number(answer.headers['content-length']));
      const held: Buffer[] = [];
      let sentFirst = false;
      answer.on('data', (chunk: Buffer) => {
        if (sentFirst) return void held.push(chunk);
        sentFirst = true;
        res.write(chunk.subarray(0, 1));
        held.push(chunk.subarray(1));
      });
      answer.on('end', () => {
        void rule.until().then(() => {
          log.push(`released ${rule.name}`);
          for (const chunk of held) res.write(chunk);
          res.end();
        });
      });
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `http://127.0.0.1:${port}`,
        log,
        lengths,
        asked,
        close: () =>
          new Promise((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}
