/**
 * @module https-listener
 * A second, TLS listener for a created host: browsers give WebXR only to secure origins, so a
 * headset reaching the host over the LAN needs `https://`. It serves the same fastify app as
 * the plain listener (same routes, same rooms and caches) with the same request and write
 * timeouts and the same JSON answer to requests the parser rejects; WebSocket upgrades (a
 * relay's workers) are handed to the app's own server. Plain HTTP stays as it was.
 *
 * `--https-port` for `vitrine serve` and `vitrine dev`: loads the certificate (the named files,
 * or the kept self-signed one), opens the TLS listener beside the plain one, and prints
 * `listening on https://HOST:PORT` and then the certificate's SHA-256 fingerprint, which a
 * person compares with what the headset's browser shows before trusting it.
 */
import { once } from 'node:events';
import https from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { createClientErrorHandler } from '../http/client-errors.ts';
import { installWriteTimeout } from '../http/write-timeout.ts';
import { loadTlsCredentials, type TlsCredentials, type TlsSource } from './tls-credentials.ts';

export interface HttpsListener {
  /** `https://HOST:PORT` with the real port. */
  url: string;
  /** Stops listening and closes every connection. */
  close(): Promise<void>;
}

/** Opens the TLS listener on `host`:`port` (0 picks a free port) once `app` is ready (it has listened on its plain port). */
async function listenHttps(app: FastifyInstance, host: string, port: number, credentials: Pick<TlsCredentials, 'cert' | 'key'>): Promise<HttpsListener> {
  const { requestTimeoutSeconds, writeTimeoutSeconds } = app.vitrine.options;
  const timeoutMs = Math.round(requestTimeoutSeconds * 1000);
  const server = https.createServer(
    {
      cert: credentials.cert,
      key: credentials.key,
      requestTimeout: timeoutMs,
      headersTimeout: timeoutMs,
      connectionsCheckingInterval: timeoutMs > 0 ? Math.max(100, Math.min(1000, Math.floor(timeoutMs / 4))) : 30_000,
      keepAliveTimeout: 72_000,
    },
    (request, response) => app.routing(request, response),
  );
  const onClientError = createClientErrorHandler(requestTimeoutSeconds);
  server.on('clientError', (error, socket) => onClientError.call(app, error as Parameters<typeof onClientError>[0], socket as Socket));
  server.on('upgrade', (request, socket, head) => app.server.emit('upgrade', request, socket, head));
  const stopWriteTimeout = installWriteTimeout(server, writeTimeoutSeconds);
  server.listen(port, host);
  await Promise.race([once(server, 'listening'), once(server, 'error').then(([error]) => Promise.reject(error as Error))]);
  const shownHost = host.includes(':') ? `[${host}]` : host;
  return {
    url: `https://${shownHost}:${(server.address() as AddressInfo).port}`,
    close: async () => {
      stopWriteTimeout();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    },
  };
}

/** Opens the TLS listener of a listening host; `print` writes one line to standard output. */
export async function startHttps(
  app: FastifyInstance,
  host: string,
  options: TlsSource & { port: number },
  print: (line: string) => void,
): Promise<HttpsListener> {
  const credentials = await loadTlsCredentials(options);
  const listener = await listenHttps(app, host, options.port, credentials);
  print(`listening on ${listener.url}`);
  print(`tls ${credentials.selfSigned ? 'self-signed certificate' : 'certificate'} ${credentials.certPath} sha256 ${credentials.fingerprint256}`);
  return listener;
}
