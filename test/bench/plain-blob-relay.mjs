/**
 * The least any host on this machine can do to send a result held in Redis, as the physical
 * bound for the scale benchmark's cold read: plain node:http, no framing, no envelope, no
 * checks. `GET /<hash>?chunks=N` asks Redis for every chunk of the blob at once (one pipelined
 * write) and writes each to the response as it arrives, as a cold host does. Two ways to read:
 * - through ioredis (the default): each reply gathered into a buffer of its own, then written;
 *   with `&keep=BYTES` each is also copied into one buffer of that size, as a host keeping the
 *   result for its next reader must;
 * - `&direct=BYTES`: on a socket of its own, each read given the part of one buffer of that
 *   size where its bytes belong (the kernel writes them there), and that part written to the
 *   response: the bytes kept with no copy in this process at all, the fewest any host can do.
 * argv[2] is the Redis URL. Prints `listening on <url>` once it listens.
 */
import http from 'node:http';
import net from 'node:net';
import { Redis } from 'ioredis';

const redisUrl = new URL(process.argv[2]);
const redis = new Redis(process.argv[2]);

/** Reads the chunks' values into `into`, calling `arrived(from, to)` as bytes land; resolves at the end. */
function readDirect(keys, into, arrived) {
  return new Promise((resolve, reject) => {
    const lineBuffer = Buffer.allocUnsafe(16 * 1024);
    let filled = 0;
    let left = -1;
    let crlf = 0;
    let line = '';
    let done = 0;
    const landed = (n) => {
      arrived(filled, filled + n);
      filled += n;
      left -= n;
      if (left === 0) crlf = 2;
    };
    const socket = net.connect({
      host: redisUrl.hostname,
      port: Number(redisUrl.port),
      onread: {
        buffer: () => (left > 0 ? into.subarray(filled, filled + Math.min(left, 1 << 20)) : lineBuffer),
        callback: (n, buffer) => {
          if (buffer.buffer === into.buffer) {
            landed(n);
            return true;
          }
          let at = 0;
          while (at < n) {
            if (left > 0) {
              const take = Math.min(left, n - at);
              into.set(lineBuffer.subarray(at, at + take), filled);
              at += take;
              landed(take);
            } else if (crlf > 0) {
              const take = Math.min(crlf, n - at);
              crlf -= take;
              at += take;
              if (crlf === 0 && ++done === keys.length) {
                socket.destroy();
                resolve();
              }
            } else {
              const newline = lineBuffer.indexOf(10, at);
              const end = newline < 0 || newline >= n ? n : newline;
              line += lineBuffer.toString('latin1', at, end);
              at = end + (end < n ? 1 : 0);
              if (end < n) {
                left = Number(line.slice(1, -1));
                line = '';
              }
            }
          }
          return true;
        },
      },
    });
    socket.on('error', reject);
    socket.write(keys.map((key) => `*2\r\n$3\r\nGET\r\n$${Buffer.byteLength(key)}\r\n${key}\r\n`).join(''));
  });
}

http
  .createServer(async (req, res) => {
    const url = new URL(req.url, 'http://x');
    const hash = url.pathname.slice(1);
    const chunks = Number(url.searchParams.get('chunks'));
    const keys = Array.from({ length: chunks }, (_, i) => `vitrine:blob:${hash}:${i}`);
    res.writeHead(200, { 'content-type': 'application/octet-stream' });
    if (url.searchParams.has('direct')) {
      const into = new Uint8Array(new SharedArrayBuffer(Number(url.searchParams.get('direct'))));
      await readDirect(keys, into, (from, to) => res.write(into.subarray(from, to)));
      res.end();
      return;
    }
    const keep = url.searchParams.has('keep') ? new Uint8Array(new SharedArrayBuffer(Number(url.searchParams.get('keep')))) : null;
    let offset = 0;
    const replies = keys.map((key) => redis.getBuffer(key));
    for (const reply of replies) {
      const chunk = await reply;
      keep?.set(chunk, offset);
      offset += chunk.length;
      if (!res.write(chunk)) await new Promise((resolve) => res.once('drain', resolve));
    }
    res.end();
  })
  .listen(0, '127.0.0.1', function () {
    process.stdout.write(`listening on http://127.0.0.1:${this.address().port}\n`);
  });
