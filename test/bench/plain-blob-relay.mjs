/**
 * The least any host on this machine can do to send a result held in Redis, as the physical
 * bound for the scale benchmark's cold read: plain node:http, no framing, no envelope, no
 * checks. `GET /<hash>?chunks=N` asks Redis for every chunk of the blob at once (one pipelined
 * write) and writes each to the response as it arrives, as a cold host does. Two ways to read:
 * - through ioredis (the default): each reply gathered into a buffer of its own, then written;
 *   with `&keep=BYTES` each is also copied into one buffer of that size, as a host keeping the
 *   result for its next reader must;
 * - `&direct=BYTES`: with the host's own reader (redis-bulk-read.ts), whose socket reads land
 *   in one buffer of that size where their bytes belong (the kernel writes them there), each
 *   part written to the response as it lands: the bytes kept with no copy in this process at
 *   all, the fewest any host can do. (Run with tsx's loader, `node --import tsx`, for it.)
 * argv[2] is the Redis URL. Prints `listening on <url>` once it listens.
 */
import http from 'node:http';
import { Redis } from 'ioredis';
import { PayloadFill } from '../../core/results/payload-fill.ts';
import { bulkReadInto } from '../../core/redis/redis-bulk-read.ts';

const redisUrl = new URL(process.argv[2]);
const redis = new Redis(process.argv[2]);

http
  .createServer(async (req, res) => {
    const url = new URL(req.url, 'http://x');
    const hash = url.pathname.slice(1);
    const chunks = Number(url.searchParams.get('chunks'));
    const keys = Array.from({ length: chunks }, (_, i) => `vitrine:blob:${hash}:${i}`);
    res.writeHead(200, { 'content-type': 'application/octet-stream' });
    if (url.searchParams.has('direct')) {
      const bytes = Number(url.searchParams.get('direct'));
      const fill = new PayloadFill(bytes, new SharedArrayBuffer(bytes));
      const reading = bulkReadInto({ host: redisUrl.hostname, port: Number(redisUrl.port) }, keys, fill, 60_000);
      for (let sent = 0; sent < bytes; sent = fill.filled) {
        await fill.until(sent + 1);
        res.write(fill.bytes.subarray(sent, fill.filled));
      }
      await reading;
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
