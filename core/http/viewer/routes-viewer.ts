/**
 * @module routes-viewer
 * Serves the web viewer: `GET /` (the page), `GET /viewer/*` (the bundled script and
 * styles, see core/assets/browser-bundles.ts) and the VR controller models
 * (`/viewer/xr-profiles/`, routes-xr-profiles.ts). Register with `app.register(viewerRoutes)`.
 * Everything visible is rendered by `app/main.ts`; the page shell carries the layout regions,
 * and a `<noscript>` note.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sendAsset } from '../../assets/send-asset.ts';
import { xrProfileRoutes } from './routes-xr-profiles.ts';

/** The tab's icon: the logo as an inline SVG data URI (nothing fetched). */
const ICON =
  "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 32 32'%3E%3Crect width='32' height='32' rx='7' fill='%23101722'/%3E" +
  "%3Cpath d='M8 10l8 14 8-14' fill='none' stroke='%235cc8ff' stroke-width='3' stroke-linejoin='round'/%3E%3C/svg%3E";

/** The HTML of `GET /`. */
const INDEX_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="dark">
<title>vitrine</title>
<link rel="icon" href="${ICON}">
<link rel="stylesheet" href="/viewer/app.css">
<script type="module" src="/viewer/app.js"></script>
</head>
<body>
<div id="app" class="app" aria-busy="true">
  <noscript><p class="fatal">The vitrine viewer needs JavaScript.</p></noscript>
</div>
</body>
</html>
`;

/**
 * The viewer's routes as a fastify plugin.
 * @example app.register(viewerRoutes)
 */
export async function viewerRoutes(app: FastifyInstance): Promise<void> {
  app.get('/', async (_request, reply) => reply.header('cache-control', 'no-cache').type('text/html; charset=utf-8').send(INDEX_HTML));
  app.get('/viewer/*', async (request: FastifyRequest<{ Params: { '*': string } }>, reply: FastifyReply) =>
    sendAsset(request, reply, 'viewer', request.params['*']),
  );

  await app.register(xrProfileRoutes);
}
