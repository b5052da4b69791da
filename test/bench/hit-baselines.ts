/**
 * @module hit-baselines
 * What the host's hits are measured against: bare servers sending the same bytes (node:http
 * with a minimal head or with the host's own, or a fastify route), the load generator's run,
 * and a process's CPU time from /proc.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';
import { REPO } from '../helpers/cli-path.ts';
import { startScriptServer } from './host-helpers.ts';

/**
 * A child process serving on GET / the bytes `bytesFromUrl` answers a request without
 * Accept-Encoding: with node:http under a minimal head, with node:http under the same head
 * the URL answered with (`node-same-head`: every header but Date and the connection ones),
 * or with fastify. Resolves its URL and pid.
 */
export function startBaseline(kind: 'node' | 'node-same-head' | 'fastify', bytesFromUrl: string): Promise<{ url: string; pid: number; stop: () => void }> {
  const fetchBytes = `const get=(u)=>new Promise((ok,no)=>require('node:http').get(u,(r)=>{const ` +
    `c=[];r.on('data',(d)=>c.push(d));r.on('end',()=>ok({headers:r.headers,buf:Buffer.concat(c)}))}).on('error',no));`;
  const listening = (port: string) => `console.log('listening on http://127.0.0.1:'+${port})`;
  // node:http with the URL's own head (but Date and the connection headers), or a minimal one.
  const head =
    kind === 'node-same-head'
      ? `Object.fromEntries(Object.entries(headers).filter(([k])=>!['date','connection','keep-alive'].includes(k)))`
      : `{'content-type':'application/octet-stream','content-length':buf.length}`;
  const script =
    kind === 'fastify'
      ? `${fetchBytes}const ` +
        `f=require('fastify')();get(process.argv[1]).then(async({buf})=>{f.get('/',async(q,r)=>r.type('application/octet-stream').send(buf));await ` +
        `f.listen({port:0,host:'127.0.0.1'});${listening('f.server.address().port')}})`
      : `${fetchBytes}const http=require('node:http');get(process.argv[1]).then(({headers,buf})=>{const h=${head};const ` +
        `s=http.createServer((q,r)=>{r.writeHead(200,h);r.end(buf)});s.listen(0,'127.0.0.1',()=>${listening('s.address().port')})})`;
  return startScriptServer(script, [bytesFromUrl], { cwd: REPO });
}

/** CPU time (user and system) a process has used so far, in milliseconds (Linux /proc). */
export function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
}

/** The kernel's clock ticks per second, the unit of /proc/PID/stat times. */
const CLOCK_TICKS = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;

/** 8 s of GET `url` at `connections` connections. */
export async function cannon(url: string, connections = 50): Promise<autocannon.Result> {
  return autocannon({ url, connections, duration: 8, pipelining: 1 });
}
