/**
 * The least any host on this machine can do to send a result held in Redis, as the physical
 * bound for the scale benchmark's cold read: plain node:http and ioredis, no framing, no
 * envelope, no checks. `GET /<hash>?chunks=N` asks Redis for every chunk of the blob at once
 * (one pipelined write) and writes each to the response as its reply arrives, as a cold host
 * does. With `&keep=BYTES` it also copies each chunk into one buffer of that size, as a host
 * keeping the result for its next reader must. argv[2] is the Redis URL. Prints
 * `listening on <url>` once it listens.
 */
import http from 'node:http';
import { Redis } from 'ioredis';

const redis = new Redis(process.argv[2]);
http
  .createServer(async (req, res) => {
    const url = new URL(req.url, 'http://x');
    const hash = url.pathname.slice(1);
    const chunks = Number(url.searchParams.get('chunks'));
    const keep = url.searchParams.has('keep') ? new Uint8Array(new SharedArrayBuffer(Number(url.searchParams.get('keep')))) : null;
    let offset = 0;
    const replies = Array.from({ length: chunks }, (_, i) => redis.getBuffer(`vitrine:blob:${hash}:${i}`));
    res.writeHead(200, { 'content-type': 'application/octet-stream' });
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
