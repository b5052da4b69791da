/**
 * @module https-listener
 * A second, TLS listener for a created host: browsers give WebXR only to secure origins, so a
 * headset reaching the host over the LAN needs `https://`. It serves the same fastify app as
 * the plain listener (same routes, same rooms and caches) with the same request and write
 * timeouts and the same JSON answer to requests the parser rejects; WebSocket upgrades (a
 * relay's workers) are handed to the app's own server. Plain HTTP stays as it was.
 */
import { once } from 'node:events';
import https from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { createClientErrorHandler } from '../http/client-errors.ts';
import { installWriteTimeout } from '../http/write-timeout.ts';
import type { TlsCredentials } from './tls-credentials.ts';

export interface HttpsListenerOptions {
  host: string;
  /** 0 picks a free port. */
  port: number;
  credentials: Pick<TlsCredentials, 'cert' | 'key'>;
  requestTimeoutSeconds: number;
  writeTimeoutSeconds: number;
}

export interface HttpsListener {
  /** `https://HOST:PORT` with the real port. */
  url: string;
  /** Stops listening and closes every connection. */
  close(): Promise<void>;
}

/** Opens the TLS listener once `app` is ready (it has listened on its plain port). */
export async function listenHttps(app: FastifyInstance, options: HttpsListenerOptions): Promise<HttpsListener> {
  const timeoutMs = Math.round(options.requestTimeoutSeconds * 1000);
  const server = https.createServer(
    {
      cert: options.credentials.cert,
      key: options.credentials.key,
      requestTimeout: timeoutMs,
      headersTimeout: timeoutMs,
      connectionsCheckingInterval: timeoutMs > 0 ? Math.max(100, Math.min(1000, Math.floor(timeoutMs / 4))) : 30_000,
      keepAliveTimeout: 72_000,
    },
    (request, response) => app.routing(request, response),
  );
  const onClientError = createClientErrorHandler(options.requestTimeoutSeconds);
  server.on('clientError', (error, socket) => onClientError.call(app, error as Parameters<typeof onClientError>[0], socket as Socket));
  server.on('upgrade', (request, socket, head) => app.server.emit('upgrade', request, socket, head));
  const stopWriteTimeout = installWriteTimeout(server, options.writeTimeoutSeconds);
  server.listen(options.port, options.host);
  await Promise.race([once(server, 'listening'), once(server, 'error').then(([error]) => Promise.reject(error as Error))]);
  const { port } = server.address() as AddressInfo;
  const shownHost = options.host.includes(':') ? `[${options.host}]` : options.host;
  return {
    url: `https://${shownHost}:${port}`,
    close: async () => {
      stopWriteTimeout();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    },
  };
}
