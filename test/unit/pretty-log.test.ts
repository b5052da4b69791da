/** Terminal log lines: what a person sees when `vitrine serve` runs in a terminal. */
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { prettyLine, prettyLogStream } from '../../core/cli/pretty-log.ts';
import { parseServeOptions } from '../../core/cli/serve-options.ts';
import { spawnHost } from '../helpers/spawn-host.ts';

const at = new Date(2026, 10, 23, 9, 5, 7).getTime();

describe('pretty log lines', () => {
  it('show time, level and message, and indent an error stack', () => {
    expect(prettyLine(JSON.stringify({ level: 30, time: at, msg: 'cache miss: room=service' }), false)).toBe('09:05:07 INFO  cache miss: room=service\n');
    const warn = prettyLine(JSON.stringify({ level: 40, time: at, msg: 'slow', err: { stack: 'Error: boom\n    at f (x.ts:1:1)' } }), false);
    expect(warn).toBe('09:05:07 WARN  slow\n    Error: boom\n        at f (x.ts:1:1)\n');
    expect(prettyLine(JSON.stringify({ level: 50, time: at, msg: 'x' }), true)).toContain('\x1b[31mERROR\x1b[0m');
    expect(prettyLine('not json', false)).toBe('not json\n');
  });

  it('reassemble lines split across writes', async () => {
    const out = new PassThrough() as unknown as NodeJS.WriteStream;
    const stream = prettyLogStream(out);
    const line = JSON.stringify({ level: 30, time: at, msg: 'hello' });
    stream.write(line.slice(0, 10));
    stream.write(`${line.slice(10)}\n${line}\n`);
    await new Promise((resolve) => stream.end(resolve));
    expect(String((out as unknown as PassThrough).read())).toBe('09:05:07 INFO  hello\n09:05:07 INFO  hello\n');
  });

  it('are chosen by --log-format; json lines stay the default off a terminal', () => {
    expect(parseServeOptions(['--log-format', 'pretty'], {}).host_options.logStream).toBeDefined();
    expect(parseServeOptions(['--log-format', 'json'], {}).host_options.logStream).toBeUndefined();
    expect(() => parseServeOptions(['--log-format', 'xml'], {})).toThrow("--log-format must be pretty or json, got 'xml'");
  });

  it('say the address once: the command prints `listening on`, fastify\'s own record is left out', async () => {
    expect(prettyLine(JSON.stringify({ level: 30, time: at, msg: 'Server listening at http://127.0.0.1:8000' }), false)).toBe('');
    const host = await spawnHost(['--port', '0', '--log-format', 'pretty', '--specimens', 'none', '--plugins', 'none']);
    // Everything it wrote is in once it has exited.
    expect(await host.stop()).toBe(0);
    expect(host.stderr()).toMatch(/INFO {2}SIGTERM: shutting down/);
    expect(`${host.stdout()}${host.stderr()}`.match(/listening (on|at)/g)).toEqual(['listening on']);
  });
});
