/**
 * The probe's blob flood, in a process of its own so that sending and reading 500 requests
 * does not delay the bench process that times the catalog beside it: `node blob-flood.mjs PORT
 * COUNT ADDRESSES [PREFIX]` sends COUNT `GET PREFIX<random sha256>` (PREFIX `/api/blobs/` by
 * default) at once to 127.0.0.1:PORT,
 * spread over ADDRESSES loopback addresses (127.0.1.x: the host tells clients apart by
 * address). Prints `flooding` when it starts sending, then one JSON line: each answer's status
 * and whether it carried Retry-After, and the milliseconds until the last answer.
 */
import { randomBytes } from 'node:crypto';
import { Agent, request } from 'node:http';

const [port, count, addresses] = process.argv.slice(2, 5).map(Number);
const prefix = process.argv[5] ?? '/api/blobs/';
const agents = Array.from({ length: addresses }, () => new Agent({ keepAlive: true, maxSockets: Infinity }));

function getBlob(i) {
  return new Promise((resolve, reject) => {
    const options = { host: '127.0.0.1', port, path: `${prefix}${randomBytes(32).toString('hex')}`, localAddress: `127.0.1.${(i % addresses) + 1}` };
    const req = request({ ...options, agent: agents[i % addresses] }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode, retryAfter: res.headers['retry-after'] !== undefined }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

process.stdout.write('flooding\n');
const started = performance.now();
const answers = await Promise.all(Array.from({ length: count }, (_, i) => getBlob(i)));
process.stdout.write(`${JSON.stringify({ answers, ms: performance.now() - started })}\n`);
for (const agent of agents) agent.destroy();
