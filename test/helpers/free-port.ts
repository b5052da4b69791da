/**
 * @module free-port
 * A loopback port nobody listens on right now, for the servers tests start themselves
 * (redis-server, nginx, Swift, whole hosts in the lab walkthrough).
 *
 * The port is handed out free and taken by its server later, sometimes seconds later. Ports
 * the OS picks for `listen(0)` come from the ephemeral range, the same range every outgoing
 * connection on the machine takes its local port from, so in that gap any client of any test
 * could take it (a host once failed with EADDRINUSE this way). These ports come from below the
 * ephemeral range instead, where only listeners go, and each vitest worker draws from a block
 * of its own, so two test processes never hand out the same port either.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/** Where the ephemeral range starts (Linux's default when it cannot be read). */
function ephemeralStart(): number {
  try {
    const first = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    return Number.isInteger(first) && first > 12_000 ? first : 32_768;
  } catch {
    return 32_768;
  }
}

const LOWEST = 10_000;
const BLOCKS = 8;
const BLOCK = Math.floor((ephemeralStart() - LOWEST) / BLOCKS);
const pool = Number(process.env['VITEST_POOL_ID'] ?? process.pid) % BLOCKS;
const start = LOWEST + pool * BLOCK;
/** The next port to try in this process's block; a random start, so reruns do not meet TIME_WAIT. */
let next = Math.floor(Math.random() * BLOCK);

function tryListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

export async function freePort(): Promise<number> {
  for (let tries = 0; tries < BLOCK; tries += 1) {
    const port = start + (next % BLOCK);
    next += 1;
    if (await tryListen(port)) return port;
  }
  throw new Error(`no free port in ${start}-${start + BLOCK - 1}`);
}
