/**
 * @module install-cors
 * CORS on every route (@fastify/cors): `--cors-origin` `*` (the default, as the reference
 * service), a comma-separated list of origins, or `none`. Preflights answer 204; the headers a
 * browser client needs to read downloads are exposed.
 */
import cors from '@fastify/cors';
import type { FastifyInstance } from 'fastify';

export const EXPOSED_HEADERS = ['Content-Disposition', 'Content-Length', 'Content-Range', 'Content-Type', 'Retry-After', 'X-Result-Id'];

export async function installCors(app: FastifyInstance, corsOrigin: string): Promise<void> {
  const value = corsOrigin.trim();
  if (value === 'none' || value === '') return;
  const origins = value.split(',').map((o) => o.trim()).filter(Boolean);
  await app.register(cors, {
    origin: origins.includes('*') ? '*' : origins,
    methods: ['GET', 'HEAD', 'POST', 'DELETE', 'OPTIONS'],
    exposedHeaders: EXPOSED_HEADERS,
    optionsSuccessStatus: 204,
    maxAge: 600,
  });
}
