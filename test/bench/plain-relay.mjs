/**
 * The least any relay on this machine can do, as a baseline for the federation benchmark:
 * plain node:http, no framing, no protocol. Every GET is fetched from the origin given as
 * argv[2] and passed through chunk by chunk, each chunk also copied into one buffer of the
 * announced length, as a cache keeping the result for the next peer would (`--no-copy` as
 * argv[3]: nothing kept, a bare pass-through). Prints `listening on <url>` once it listens.
 */
import http from 'node:http';

const origin = process.argv[2];
const keep = process.argv[3] !== '--no-copy';
http
  .createServer((req, res) => {
    http.get(new URL(req.url, origin), (upstream) => {
      const length = Number(upstream.headers['content-length']);
      const kept = keep ? new Uint8Array(new ArrayBuffer(length)) : null;
      let offset = 0;
      res.writeHead(upstream.statusCode, { 'content-type': upstream.headers['content-type'], 'content-length': length });
      upstream.on('data', (chunk) => {
        kept?.set(chunk, offset);
        offset += chunk.length;
        if (!res.write(chunk)) {
          upstream.pause();
          res.once('drain', () => upstream.resume());
        }
      });
      upstream.on('end', () => res.end());
    });
  })
  .listen(0, '127.0.0.1', function () {
    process.stdout.write(`listening on http://127.0.0.1:${this.address().port}\n`);
  });
