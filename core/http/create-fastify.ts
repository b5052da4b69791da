/**
 * @module create-fastify
 * The fastify instance of a host with the guards every request passes before any route: the
 * error handlers (catalogued JSON bodies; a route's schema failures become the same errors), the write timeout on responses a client stopped
 * reading, the Host header check, the JSON body parsers and load shedding; and the redactor
 * every log line and error detail passes, so neither carries a credential.
 */
import Fastify, { LogController, type FastifyInstance } from 'fastify';
import type { ResolvedHostOptions } from '../options.ts';
import { installHostCheck, resolveAllowedHosts } from './allowed-hosts.ts';
import { installErrorHandlers } from './error-handler.ts';
import { serverOptions } from './http-server.ts';
import { installJsonBodyParsers } from './json-body.ts';
import { lazyValidators } from './lazy-validators.ts';
import { installLoadShedding } from './load-shedding.ts';
import { INPUT_VALIDATION, toInputError } from './schema-errors.ts';
import { installWriteTimeout } from './write-timeout.ts';
import { redactingLogHooks } from './log-redaction.ts';
import { lazyChildLogger } from './lazy-child-logger.ts';
import { declareRouteOf } from './route-of.ts';
import { Redactor, urlSecrets } from '../redact-credentials.ts';

/** The credentials a host knows of, hidden from every answer and log line. */
export function hostRedactor(options: ResolvedHostOptions): Redactor {
  return new Redactor([options.adminToken, options.token, ...urlSecrets(options.redis), ...urlSecrets(options.blobStore)]);
}

export async function createFastify(options: ResolvedHostOptions): Promise<FastifyInstance> {
  const redactor = hostRedactor(options);
  const validators = lazyValidators();
  const app = Fastify({
    logger: options.logLevel === false ? false : { level: options.logLevel, stream: options.logStream, hooks: redactingLogHooks(redactor) },
    bodyLimit: options.bodyLimitBytes,
    // Per-request lines would drown the cache and job logs (progress is polled every 0.5 s).
    logController: new LogController({ disableRequestLogging: true }),
    childLoggerFactory: lazyChildLogger,
    routerOptions: { maxParamLength: 1024 },
    forceCloseConnections: true,
    ajv: INPUT_VALIDATION,
    schemaController: { compilersFactory: { buildValidator: validators } },
    schemaErrorFormatter: toInputError,
    ...serverOptions(options),
  });
  declareRouteOf(app);
  // Ajv readied on a turn of its own once listening (an app answering injected requests only, as tests make, never pays it).
  app.addHook('onListen', (done) => void (setImmediate(validators.warm), done()));
  installErrorHandlers(app, redactor);
  const stopWriteTimeout = installWriteTimeout(app.server, options.writeTimeoutSeconds);
  app.addHook('onClose', async () => stopWriteTimeout());
  installHostCheck(app, resolveAllowedHosts(options.host, options.allowedHosts));
  installJsonBodyParsers(app);
  await installLoadShedding(app, options);
  return app;
}
