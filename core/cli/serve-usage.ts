/**
 * @module serve-usage
 * What `vitrine serve --help` prints: every flag with its default (`vitrine dev` shows the same).
 */
import { AGENT_USAGE } from './agent-flags.ts';
import { REMOTE_USAGE } from './remote-flags.ts';

export const SERVE_USAGE = `usage: vitrine serve [options]

  --host H                   bind address (default 127.0.0.1)
  --port N                   port; 0 picks a free one (default 8000)
  --https-port N             also listen with TLS on port N (0 picks a free one): headset
                             browsers allow WebXR only on https:// origins (default: none)
  --tls-cert FILE            with --https-port: the certificate (PEM; a chain may follow)
  --tls-key FILE             with --https-port: its private key (PEM)
  --tls-dir DIR              with --https-port and no --tls-cert: where the self-signed
                             certificate is made once and kept (default: the user's config
                             folder, e.g. ~/.config/vitrine/tls)
  --specimens DIR            specimens directory, or none (default specimens)
  --plugins DIR              built plugin bundles, or none (default build/out)
  --cache-ttl S              room cache time-to-live in seconds (default 300)
  --job-ttl S                how long a finished job stays pollable, seconds (default 300)
  --pool-size N              worker threads for plugin functions (default: one per core)
  --python PATH              the Python that runs Python plugins (default: python3, or
                             /usr/bin/python3 when only it has numpy)
  --python-processes N       warm Python plugin processes (default: the pool size)
  --python-max-bytes N       address space per Python process, and the most one of its
                             results may declare (default: half the memory)
  --python-max-children N    processes a Python plugin process may run besides itself; past
                             it the process and all it started are ended (default 32)
  --compute-timeout S        seconds a request (/data, /invoke, a room's entry, MCP compute)
                             waits for a computation before a 504; jobs have their own limit
                             (default 600)
  --cache-max-bytes N        bytes of results held across rooms and finished jobs, least
                             recently used dropped first (default: a quarter of the memory)
  --cors-origin LIST         origins pages may read from, comma-separated (* for any), or none;
                             only origins named here may write from a browser (default *)
  --admin-token T            cache stats, cache clear, reload and /metrics need
                             Authorization: Bearer T; none leaves them open (default: open
                             on loopback; bound elsewhere, a random token printed at start)
  --max-jobs N               queued + running jobs; past it /start answers 503 (default 1000)
  --max-event-streams N      event streams open at once on this host; past it a new one
                             answers 503 with Retry-After (default 10000)
  --room-threads N           compute threads one room may hold; queued work is taken
                             round-robin across rooms (default: half the pool, at least 1)
  --redis URL                join the Redis service at redis://HOST:PORT[/DB]: every host with
                             the same URL serves the same rooms, jobs and progress
  --compute N                with --redis: threads this host lends to the service's
                             computations; 0 for a front end (default: the pool size)
  --blob-store URL           with --redis: keep result bytes in this Redis of their own
                             (redis://HOST:PORT[/DB], any maxmemory-policy; an evicted result
                             is computed again) or in an S3-compatible object store
                             (s3://BUCKET[/PREFIX]; credentials and region from the standard
                             AWS environment); default: the --redis Redis
  --s3-endpoint URL          the S3 endpoint of an s3:// blob store (default: AWS_ENDPOINT_URL_S3,
                             else AWS)
  --s3-timeout SECONDS       an s3:// blob store that does not answer a request, or stalls a
                             transfer, this long answers 503 (default: 10)
  --accel-redirect PREFIX    behind nginx: /data and /result answer X-Accel-Redirect:
                             PREFIX<blob id> and no body, for the cache in front to send the bytes
                             (clients that reach the host past nginx get no body)
  --relay                    relay mode: accept workers on /ws/federation/{worker_id}
  --join URL                 worker mode: join the relay at URL (http or https)
  --worker-id ID             this worker's id (default: the host name)
  --token T                  shared secret between relay and workers
  --envelope-media-type T    envelope media type (default application/x-service-envelope-v1)
  --log-level L              fatal, error, warn, info, debug, trace or silent (default info)
  --log-format F             pretty (time, level, message) or json lines (default: pretty
                             when standard error is a terminal, json otherwise)
  --no-viewer                do not serve the web viewer at /
  --client-profiles on|off   give known clients that cannot ask (User-Agent GodotEngine/...)
                             uint8 volumes of at most 256 per axis and meshes within
                             --headset-triangles (default on)
  --headset-triangles N      most triangles of a mesh sent to a headset client (default 500000)
  --mesh-lod-triangles N     levels of detail for mesh results over N triangles (default 300000)
  --request-timeout S        seconds a request's headers and body may take to arrive, else 408;
                             0 for none (default 30)
  --write-timeout S          seconds a response may make no progress because its client stopped
                             reading before it is closed; 0 for none (default 60)
  --max-event-loop-delay MS  shed requests with 503 while the event loop lags past MS
                             for about 3 s; 0 for never (default 1000)
  --max-rss BYTES            shed requests with 503 while resident memory is past BYTES;
                             0 for never (default 0; the V8 heap is always watched)
  --uploads on|off           accept file uploads at POST /api/uploads (default on)
  --max-upload-bytes N       largest accepted upload in bytes, else 413 (default 268435456)
  --upload-ttl S             seconds an upload is kept (default 3600)
  --max-delivery-bytes N     largest mesh a delivery makes (segment surfaces), else 413
                             (default a quarter of --cache-max-bytes)
  --published-ttl S          seconds a published specimen is kept once nothing names it (a
                             room's layer or a snapshot keeps what it names) (default 86400)
  --max-annotations N        annotations one room holds at most (default 100000)
  --snapshot-ttl S           seconds a room's snapshot and the bytes of its layers are kept,
                             whatever the room does next (default 2592000, 30 days)
  --data-dir DIR             where a lone host keeps rooms, scenes, annotations, snapshots,
                             uploads and published specimens, or none (memory only, lost at
                             exit); not used with --redis (default $XDG_DATA_HOME/vitrine,
                             else ~/.local/share/vitrine)
  --disk-cache-max-bytes N   bytes of computed layer results a lone host keeps in its data
                             folder, least recently used dropped first (default 10737418240)
  --log-ttl S                seconds a room's log keeps each change (default 2592000, 30 days)
  --plugin-versions N        versions of each plugin kept side by side after reloads; layers
                             pinned to one keep computing with it (default 3)
  --trust-keys DIR           Ed25519 public keys (PEM) plugin bundles' signatures are checked
                             against (vitrine sign writes them)
  --signatures MODE          off, warn (load, and show each plugin's signature) or require
                             (load only validly signed plugins); default warn with
                             --trust-keys, else off
  --allowed-hosts LIST       accepted Host header names, comma-separated, any port; * for any
                             (default: the bound address, localhost, 127.0.0.1 and [::1]; bound
                             beyond loopback also the machine's host name, <name>.local and
                             the addresses of its network interfaces)
  --trust-proxy LIST         addresses or CIDR ranges of login proxies, comma-separated: a
                             request from one of them is the user its --user-header names;
                             from anywhere else that header is ignored (default: none)
  --user-header H            the header a trusted login proxy names the user in
                             (default X-Forwarded-User)
${AGENT_USAGE}${REMOTE_USAGE}
Each option can also be set as VITRINE_<NAME>, e.g. VITRINE_PORT=9000 (an on/off flag:
VITRINE_RELAY=on or off; true/false, 1/0 and yes/no too).
`;
