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

/** The `schemaController.compilersFactory.buildValidator` of a host. */
export function lazyValidators(): Factory {
  const build = AjvCompiler();
  return ((externalSchemas: unknown, options: unknown) => {
    const compile = (build as (...args: unknown[]) => (route: unknown) => Validate)(externalSchemas, options);
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
}
