/**
 * @module lazy-validators
 * Route schemas compiled by Ajv on a route's first request instead of when the host starts.
 * fastify compiles every route's body, query, params and headers schema as the route is added:
 * about 0.3 s of CPU for this host's few hundred routes, paid by every start (a host, a worker,
 * a test's app) though most starts answer a handful of routes. The compiler is fastify's own
 * (@fastify/ajv-compiler, with the server's `ajv` options); only when it runs changes.
 */
import { AjvCompiler } from '@fastify/ajv-compiler';
import type { FastifyServerOptions } from 'fastify';

type Factory = NonNullable<NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>['buildValidator']>;

/** A validator as fastify calls it: its `errors` after a failure, `schemaEnv` to be handed the request as parent. */
type Validate = ((data: unknown, context?: unknown) => unknown) & { errors?: unknown; schemaEnv?: unknown };

/** A schema of one field: compiling it readies Ajv itself (its meta-schema, its own code) and little else. */
const WARM_ROUTE = { schema: { type: 'object', properties: { warm: { type: 'string' } } }, method: 'GET', url: '/', httpPart: 'querystring' };

/**
 * The `schemaController.compilersFactory.buildValidator` of a host, and `warm`: readies the
 * compiler once the host listens, so that the first request validated does not pay for it.
 * That first compile took a few hundred milliseconds of one turn on a loaded machine, the turn
 * that also joins the body of a 16 MiB import.
 */
export function lazyValidators(): Factory & { warm(): void } {
  const build = AjvCompiler();
  let first: ((route: unknown) => Validate) | undefined;
  const factory = ((externalSchemas: unknown, options: unknown) => {
    const compile = (build as (...args: unknown[]) => (route: unknown) => Validate)(externalSchemas, options);
    first ??= compile;
    return (route: unknown) => {
      let validate: Validate | undefined;
      const lazy: Validate = (data, context) => {
        validate ??= compile(route);
        const valid = validate(data, context);
        lazy.errors = validate.errors;
        return valid;
      };
      // Ajv's validators have a schemaEnv: fastify then passes the request as the value's
      // parent, so a schema's defaults or coercion may replace the value itself. Kept so.
      lazy.schemaEnv = true;
      return lazy;
    };
  }) as unknown as Factory;
  return Object.assign(factory, { warm: () => void first?.(WARM_ROUTE) });
}
