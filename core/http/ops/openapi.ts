/**
 * @module openapi
 * `GET /openapi.json` (OpenAPI 3.1) and `GET /docs` (Swagger UI). @fastify/swagger collects
 * every route's declared schema (the same one fastify validates its inputs with) as the route
 * is registered, so the collector is installed before any route; at request time the document
 * gains what only the registry knows: each function's parameter schema under `/invoke` (one
 * alternative per function), each dynamic specimen's beside the one `/data` path
 * (openapi-data.ts) and each function's beside its `/start` (openapi-function-start.ts), so it
 * changes when a plugin is reloaded. Every operation lists the JSON error body; operations are grouped
 * by tag and internal routes left out (openapi-tags.ts); the page wears the viewer's colours
 * (docs-theme.ts).
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance, FastifySchema } from 'fastify';
import type { HostContext } from '../../host-context.ts';
import { ERROR_BODY_SCHEMA } from '../error-handler.ts';
import { DOCS_THEME } from './docs-theme.ts';
import { describeData } from './openapi-data.ts';
import { describeFunctionStart } from './openapi-function-start.ts';
import { organiseOperations } from './openapi-tags.ts';

type Doc = Record<string, unknown> & { paths?: Record<string, Record<string, Record<string, unknown>>>; components?: Record<string, unknown> };

const ERROR_RESPONSE = {
  description: 'An error: the status, a readable detail and a catalogued code',
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
};

/** A form upload's body: one file part (any field name; `file` by convention). */
const FORM_FILE_BODY = {
  type: 'object',
  properties: { file: { type: 'string', format: 'binary', description: 'The file; the first file part of the form is the upload' } },
};

/** A function's parameter schema as an OpenAPI 3.1 schema object. */
function parameters(schema: Record<string, unknown>): Record<string, unknown> {
  const { $schema: _ignored, ...rest } = schema;
  return rest;
}

/** The collected document plus the registry's functions and dynamic specimens. */
export function withRegistry(base: Doc, ctx: HostContext): Doc {
  const doc: Doc = structuredClone(base);
  doc.openapi = '3.1.0';
  doc.components = { ...(doc.components ?? {}), schemas: { ...((doc.components?.schemas as object) ?? {}), Error: ERROR_BODY_SCHEMA } };
  const paths = (doc.paths ??= {});
  for (const operations of Object.values(paths)) {
    for (const operation of Object.values(operations)) {
      const responses = (operation.responses ??= {}) as Record<string, unknown>;
      delete responses.default;
      responses['4XX'] = ERROR_RESPONSE;
      responses['5XX'] = ERROR_RESPONSE;
      if (!responses['200'] && !responses['204']) responses['200'] = { description: 'Success' };
      // An absent JSON body reads as `{}`, so it is needed only when its schema requires a member.
      const body = operation.requestBody as { required?: boolean; content?: Record<string, { schema?: { required?: unknown } }> } | undefined;
      const json = body?.content?.['application/json']?.schema;
      if (body && json && !json.required) body.required = false;
      // The collector gives every media type of a body the same object: the form gets its own.
      if (body?.content?.['multipart/form-data']) body.content['multipart/form-data'] = { schema: FORM_FILE_BODY } as { schema?: { required?: unknown } };
    }
  }
  const invoke = paths['/api/processing/invoke']?.post;
  if (invoke) {
    invoke.requestBody = {
      required: true,
      content: {
        'application/json': {
          schema: {
            oneOf: ctx.functions.list().map((entry) => ({
              title: entry.name,
              type: 'object',
              required: ['function_name'],
              properties: {
                function_name: { const: entry.name },
                kwargs: parameters(entry.schema),
                args: { type: 'array', description: 'Values by position, in parameter order' },
                room_id: { type: 'string', maxLength: 256 },
              },
            })),
          },
        },
      },
    };
  }
  const schemas = (doc.components as { schemas: Record<string, unknown> }).schemas;
  describeData(paths, schemas, ctx);
  describeFunctionStart(paths, schemas, ctx);
  const organised = organiseOperations(paths);
  doc.tags = organised.tags;
  doc.paths = organised.paths;
  return doc;
}

/** This package's version (its package.json, found upwards from this file, sources or compiled). */
function ownVersion(): string {
  for (let dir = path.dirname(fileURLToPath(import.meta.url)); ; dir = path.dirname(dir)) {
    const file = path.join(dir, 'package.json');
    if (existsSync(file)) {
      const pkg = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'vitrine') return pkg.version ?? '0.0.0';
    }
    if (path.dirname(dir) === dir) return '0.0.0';
  }
}

/**
 * A route whose body is not JSON (an upload: the file itself) declares the media type it
 * `consumes` and no body schema, since fastify would validate the stream against it; the
 * document shows such a body as binary.
 */
function withRawBody({ schema, url }: { schema: FastifySchema; url: string }): { schema: FastifySchema; url: string } {
  const consumes = (schema as { consumes?: string[] } | undefined)?.consumes;
  if (!consumes || schema.body || consumes.some((type) => type.includes('json'))) return { schema, url };
  return { schema: { ...schema, body: { type: 'string', format: 'binary' } }, url };
}

/** Registers the collector; call before any route is added, so every route is in the document. */
export async function installOpenApiCollector(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'vitrine',
        version: ownVersion(),
        description: 'A plugin-based specimen host: catalog, parameter schemas, room-cached results, jobs, envelopes.',
      },
    },
    hideUntagged: false,
    transform: withRawBody,
  });
}

/** Serves the collected document (with the registry's part) at /openapi.json and /docs. */
export async function installOpenApi(app: FastifyInstance, ctx: HostContext): Promise<void> {
  await app.register(swaggerUi, {
    routePrefix: '/docs',
    transformSpecification: (spec) => withRegistry(spec as Doc, ctx),
    transformSpecificationClone: true,
    ...DOCS_THEME,
  });
  app.get('/openapi.json', { schema: { hide: true } }, async () => withRegistry(app.swagger() as Doc, ctx));
}
