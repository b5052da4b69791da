/**
 * @module create-fastify
 * The fastify instance of a host with the guards every request passes before any route: the
 * error handlers (catalogued JSON bodies; a route's schema failures become the same errors), the write timeout on responses a client stopped
 * reading, the Host header check, the JSON body parsers and load shedding.
 */
import Fastify, { LogController, type FastifyInstance } from 'fastify';
import type { ResolvedHostOptions } from '../options.ts';
import { installHostCheck, resolveAllowedHosts } from './allowed-hosts.ts';
import { installErrorHandlers } from './error-handler.ts';
import { serverOptions } from './http-server.ts';
import { installJsonBodyParsers } from './json-body.ts';
import { installLoadShedding } from './load-shedding.ts';
import { INPUT_VALIDATION, toInputError } from './schema-errors.ts';
import { installWriteTimeout } from './write-timeout.ts';

export async function createFastify(options: ResolvedHostOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: options.logLevel === false ? false : { level: options.logLevel, stream: options.logStream },
    bodyLimit: options.bodyLimitBytes,
    // Per-request lines would drown the cache and job logs (progress is polled every 0.5 s).
    logController: new LogController({ disableRequestLogging: true }),
    routerOptions: { maxParamLength: 1024 },
    forceCloseConnections: true,
    ajv: INPUT_VALIDATION,
    schemaErrorFormatter: toInputError,
    ...serverOptions(options),
  });
  installErrorHandlers(app);
  const stopWriteTimeout = installWriteTimeout(app.server, options.writeTimeoutSeconds);
  app.addHook('onClose', async () => stopWriteTimeout());
  installHostCheck(app, resolveAllowedHosts(options.host, options.allowedHosts));
  installJsonBodyParsers(app);
  await installLoadShedding(app, options);
  return app;
}
