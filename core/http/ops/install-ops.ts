/**
 * @module install-ops
 * The operations surface of a host, installed before its routes: the cross-site write guard,
 * CORS, compression of JSON, the OpenAPI document and /docs, the admin-token guard, /metrics,
 * /healthz and /readyz.
 */
import type { FastifyInstance } from 'fastify';
import type { HostContext } from '../../host-context.ts';
import { installAdminGuard } from './admin-guard.ts';
import { healthRoutes, Readiness } from './routes-health.ts';
import { installCompression } from './install-compression.ts';
import { installCors } from './install-cors.ts';
import { installCrossSiteGuard } from '../cross-site-writes.ts';
import { installRevalidation } from '../revalidate.ts';
import { parseCorsOrigins } from '../cors-origins.ts';
import { installMetrics, type HostFigures } from './metrics.ts';
import { installOpenApi } from './openapi.ts';

export async function installOps(app: FastifyInstance, ctx: HostContext, figures: HostFigures): Promise<Readiness> {
  const origins = parseCorsOrigins(ctx.options.corsOrigin);
  installCrossSiteGuard(app, origins);
  installCors(app, origins);
  // Before compression: the ETag is of the body itself, whatever its encoding on the wire.
  installRevalidation(app);
  await installCompression(app);
  await installOpenApi(app, ctx);
  installAdminGuard(app, ctx.options.adminToken);
  installMetrics(app, ctx, figures);
  const readiness = new Readiness();
  await app.register(healthRoutes, { readiness });
  return readiness;
}
