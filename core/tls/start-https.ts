/**
 * @module start-https
 * `--https-port` for `vitrine serve` and `vitrine dev`: loads the certificate (the named files,
 * or the kept self-signed one), opens the TLS listener beside the plain one, and prints
 * `listening on https://HOST:PORT` and then the certificate's SHA-256 fingerprint, which a
 * person compares with what the headset's browser shows before trusting it.
 */
import type { FastifyInstance } from 'fastify';
import { listenHttps, type HttpsListener } from './https-listener.ts';
import { loadTlsCredentials, type TlsSource } from './tls-credentials.ts';

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
