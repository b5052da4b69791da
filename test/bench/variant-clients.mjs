/**
 * The busy clients of the bystander benches (bystander-variants.ts), in a process of their own
 * so that reading their downloads does not delay the bench process that times the bystander:
 * `node variant-clients.mjs PORT CLIENTS` has CLIENTS clients (from 127.0.0.1, .2, ...: the
 * host tells clients apart by address) each ask, one after another, for distinct
 * `max_triangles` variants (gzip) of the 400k-triangle mesh in room `heavy-<client>`. Prints
 * `asking` once they have started; on SIGTERM, lets each finish its request and prints
 * `done N`, N the variants they received.
 */
import { Agent, request } from 'node:http';

const [port, clients] = process.argv.slice(2, 4).map(Number);
let stop = false;
let done = 0;

function get(path, address) {
  return new Promise((resolve, reject) => {
    const options = { host: '127.0.0.1', port, path, headers: { 'accept-encoding': 'gzip' }, localAddress: address, agent: new Agent() };
    const req = request(options, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

process.once('SIGTERM', () => (stop = true));
const mesh = (c, i) => `/api/specimens/grid/data?params=%7B%22triangles%22%3A400000%7D&room_id=heavy-${c}&max_triangles=${300000 - c * 1000 - i}`;
const asking = Array.from({ length: clients }, async (_, c) => {
  for (let i = 0; !stop; i++) if ((await get(mesh(c, i), `127.0.0.${c + 1}`)) === 200) done++;
});
process.stdout.write('asking\n');
await Promise.all(asking);
process.stdout.write(`done ${done}\n`);
