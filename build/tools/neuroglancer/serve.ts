/**
 * @module serve
 * `npm run neuroglancer [-- --port N] [--host H]`: serves the stock Neuroglancer the browser
 * tests open (neuroglancer-bundle.ts: the npm package, unmodified, bundled once into the temp
 * folder) until stopped, so a machine with no internet access can still open a room's state.
 * Prints the page's URL; the host it reads must allow that origin (`--cors-origin`).
 */
import { parseArgs } from 'node:util';
import { serveNeuroglancer } from './neuroglancer-bundle.ts';

const { values } = parseArgs({ options: { port: { type: 'string', default: '8090' }, host: { type: 'string', default: '127.0.0.1' } } });
const port = Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`--port must be a whole number from 0 to 65535, not '${values.port}'`);
  process.exit(2);
}
const page = await serveNeuroglancer(port, values.host);
// One write, so whoever reads the first line has the second too.
const origin = page.url.slice(0, -1);
const then = `then open ${page.url}#!<its /api/rooms/ROOM/neuroglancer state>`;
process.stdout.write(`neuroglancer on ${page.url}\nserve vitrine with --cors-origin ${origin}, ${then}\n`);
const stop = () => void page.close().then(() => process.exit(0));
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
