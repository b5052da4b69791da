/**
 * @module serve-command
 * `vitrine serve`: creates the host, listens, prints `listening on http://HOST:PORT` on
 * standard output (after `admin token: <T>` when it made one, see lab-admin-token.ts, and
 * `data: <dir>`, where it keeps its work, see data-dir-choice.ts; logs go
 * to standard error), with `--https-port` a second line `listening on https://HOST:PORT`
 * (core/tls/), and shuts down cleanly on SIGINT/SIGTERM:
 * running jobs end as errors, pools stop, sockets close.
 */
import type { FastifyInstance } from 'fastify';
import { isLoopbackAddress } from '../http/allowed-hosts.ts';
import { listen } from '../server.ts';
import { startHttps, type HttpsListener } from '../tls/https-listener.ts';
import { untilSignalled } from './process-lifecycle.ts';
import { parseServeOptions, type ServeOptions } from './serve-options.ts';
import { SERVE_USAGE } from './serve-usage.ts';
import { fail, say } from './command-exit.ts';

/** Said at start beyond loopback: whoever reaches the host may use a room nobody closed. */
const OPEN_ROOMS_LINE =
  'rooms: every room is open to anyone who reaches this host until its access is set; to close one, ' +
  "vitrine users add NAME, then PUT /api/rooms/{room}/access '{\"public\": \"none\"}' with Authorization: Bearer <token>";

export async function runServeCommand(argv: string[]): Promise<number> {
  let parsed: ServeOptions;
  try {
    parsed = parseServeOptions(argv);
  } catch (error) {
    return fail(2, `vitrine serve: ${(error as Error).message}\n\n${SERVE_USAGE}`);
  }
  if (parsed.help) return say(SERVE_USAGE);
  let app: FastifyInstance;
  try {
    // The host's modules load only once the options are good: a refused option (or --help) then
    // answers without paying for them (about 0.6 s of CPU).
    const { createApp } = await import('../app.ts');
    app = await createApp(parsed.host_options);
  } catch (error) {
    return fail(1, `vitrine serve: ${(error as Error).message}\n`);
  }
  let url: string;
  try {
    url = await listen(app, parsed.host, parsed.port);
  } catch (error) {
    process.stderr.write(`vitrine serve: cannot listen on ${parsed.host}:${parsed.port}: ${(error as Error).message}\n`);
    await app.close();
    return 1;
  }
  if (parsed.admin.warning) app.log.warn(parsed.admin.warning);
  if (parsed.data.warning) app.log.warn(parsed.data.warning);
  let tls: HttpsListener | null = null;
  // Signals are taken before `listening on` is printed: whoever stops the host as soon as it
  // reads that line gets the clean shutdown, never the default end of the process.
  const ended = untilSignalled({
    name: 'vitrine serve',
    announce: (signal) => app.log.info(`${signal}: shutting down`),
    shutdown: async () => {
      await tls?.close();
      await app.close();
    },
  });
  // Before `listening on`, so whoever waits for that line has the token too.
  if (parsed.admin.announce) process.stdout.write(`${parsed.admin.announce}\n`);
  if (parsed.data.line) process.stdout.write(`${parsed.data.line}\n`);
  if (!isLoopbackAddress(parsed.host)) process.stdout.write(`${OPEN_ROOMS_LINE}\n`);
  process.stdout.write(`listening on ${url}\n`);
  if (parsed.https) {
    try {
      tls = await startHttps(app, parsed.host, parsed.https, (line) => process.stdout.write(`${line}\n`));
    } catch (error) {
      process.stderr.write(`vitrine serve: cannot listen with TLS on ${parsed.host}:${parsed.https.port}: ${(error as Error).message}\n`);
      await app.close();
      return 1;
    }
  }
  return ended;
}
