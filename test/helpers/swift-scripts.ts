/**
 * @module swift-scripts
 * The Python that runs the tests' Swift cluster (swift-server.ts) in one process: it writes the
 * account, container and object rings, then serves the three storage servers and the proxy,
 * each on its own port as `swift-<name>-server <conf>` would, side by side in eventlet's green
 * threads. Five processes (the ring builder and a process a server) each paid Python's and
 * Swift's start, seconds of a test file's time.
 */

/**
 * What `swift-ring-builder <name>.builder create 4 1 1`, `add r1z1-127.0.0.1:<port>/d1 1` and
 * `rebalance` write, for each `name=port` argument after the folder: 2^4 partitions, one
 * replica, no wait between moves, the smallest ring that works. Then each server as Swift's
 * run_wsgi runs it with `workers = 0` (in the foreground, its socket bound from its config):
 * the object server's global configuration completed as its command completes it, and every
 * server's own logger, pipeline and green pool, on one eventlet hub.
 */
export const CLUSTER_SCRIPT = `
import sys
import eventlet
from swift.common import utils, wsgi
from swift.common.ring import RingBuilder
from swift.obj import server as object_server
folder = sys.argv[1]
for arg in sys.argv[2:]:
    name, port = arg.split('=')
    builder = RingBuilder(4, 1, 1)
    builder.add_dev({'region': 1, 'zone': 1, 'ip': '127.0.0.1', 'port': int(port), 'replication_ip': '127.0.0.1',
                     'replication_port': int(port), 'device': 'd1', 'weight': 1, 'meta': ''})
    builder.rebalance()
    builder.validate()
    builder.get_ring().save(f'{folder}/{name}.ring.gz')
    builder.save(f'{folder}/{name}.builder')
utils.eventlet_monkey_patch()
# run_server chooses Swift's hub before it serves: chosen here once, and again only in a thread
# with none yet (eventlet's thread pool), for a hub chosen again inside a green thread would drop
# the servers already running on it.
choose_hub = eventlet.hubs.use_hub
choose_hub(utils.get_hub())
eventlet.hubs.use_hub = lambda *hub: None if hasattr(eventlet.hubs._threadlocal, 'hub') else choose_hub(*hub)
servers = []
for name in ('account', 'container', 'object', 'proxy'):
    conf, logger, log_name = wsgi._initrp(f'{folder}/{name}.conf', f'{name}-server')
    global_conf = {'log_name': log_name}
    if name == 'object':
        object_server.global_conf_callback(conf, global_conf)
    servers.append(eventlet.spawn(wsgi.run_server, conf, logger, wsgi.get_socket(conf), global_conf=global_conf))
for server in servers:
    server.wait()
`;
