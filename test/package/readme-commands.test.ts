/**
 * The shell examples of the README and of the documents it sends a newcomer to (the commands,
 * the HTTP API, operating, rooms, plugins, the viewer) run as printed. Their `sh` code blocks are read; every `curl`
 * example (and the shell variables they set) runs against a real host serving the example
 * plugins and specimens (what `npm start` serves), or against a host started with the options
 * of the `npx vitrine serve` line of its own block; every `npx vitrine serve` and `vitrine
 * worker` line's options are parsed as the command would. curl runs with `--fail-with-body`
 * (from a curlrc), so a 4xx or 5xx fails unless the example's comment names that status.
 * Not run: commands that need other machines or services (a relay, Redis, a LAN name,
 * napari), placeholders (`...`), and the long-running commands themselves.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseServeOptions } from '../../core/cli/serve-options.ts';
import { parseWorkerOptions } from '../../core/cli/worker-command.ts';
import { REPO } from '../helpers/cli-path.ts';
import { builtExamplePlugins } from '../helpers/example-plugins.ts';
import { killAllHosts, spawnHost, type RunningHost } from '../helpers/spawn-host.ts';
import { binaryStl } from '../helpers/upload-files.ts';
import { waitFor } from '../helpers/wait-for.ts';

interface Line {
  command: string;
  /** HTTP statuses the example's comment names (the answer must show one of them). */
  statuses: string[];
}

/** The `sh` blocks of the README, each as its commands (continuations joined, comments apart). */
function shellBlocks(markdown: string): Line[][] {
  const blocks: Line[][] = [];
  for (const match of markdown.matchAll(/```sh\n([\s\S]*?)```/g)) {
    const lines: Line[] = [];
    for (const raw of match[1]!.replace(/\\\n\s*/g, ' ').split('\n')) {
      const text = raw.trim();
      if (text === '') continue;
      const comment = text.startsWith('#') ? text : (/\s#\s.*$/.exec(text)?.[0] ?? '');
      const statuses = [...comment.matchAll(/\b[1-5]\d\d\b/g)].map((m) => m[0]);
      // A comment line under a command speaks of that command.
      if (text.startsWith('#')) {
        if (statuses.length > 0 && lines.length > 0) lines.at(-1)!.statuses.push(...statuses);
        continue;
      }
      lines.push({ command: text.slice(0, text.length - comment.length).trim(), statuses });
    }
    blocks.push(lines);
  }
  return blocks;
}

/** The arguments after `npx vitrine <command>`, with shell variables given stand-in values. */
function argsOf(command: string, name: string): string[] | null {
  const at = command.indexOf(`npx vitrine ${name} `);
  if (at < 0) return null;
  const stand: Record<string, string> = { $R: 'redis://127.0.0.1:6379', $B: 'redis://127.0.0.1:6380' };
  return command
    .slice(at + `npx vitrine ${name} `.length)
    .split(/\s+/)
    .filter(Boolean)
    .map((arg) => stand[arg] ?? arg.replace(/^"\$\w+"$/, 'stand-in'));
}

/** Lines that cannot run here: other machines, services, placeholders, long-running commands. */
function runnable(line: Line): boolean {
  const c = line.command;
  if (!/^(curl |[A-Z]+=)/.test(c)) return false;
  if (c.includes('...') || c.includes('.local:') || c.includes('federation') || c.includes('gpu1:')) return false;
  return !/127\.0\.0\.1:800[1-9]/.test(c);
}

/** One block's runnable lines as a bash script that stops at the first failing one. */
function script(lines: Line[], url: string): string {
  const out = ['set -u', `H=${url}`];
  for (const { command: raw, statuses } of lines) {
    const command = raw.replace(/^H=\S+$/, `H=${url}`).replaceAll('http://127.0.0.1:8000', url);
    const quoted = `'${raw.replaceAll("'", "'\\''")}'`;
    // A stream that stays open (a room's events) is read for a few seconds.
    const run = command.startsWith('curl -sN') ? `timeout 3 ${command}` : command;
    if (statuses.length > 0) {
      const patterns = statuses.map((s) => `*${s}*`).join('|');
      out.push(
        `out=$( { ${run} ; } 2>&1 || true ); case "$out" in ${patterns}) ;; *) echo "FAILED (wanted ${statuses.join(' or ')}): " ${quoted}; echo "$out" | ` +
        `head -c 400; exit 1;; esac`,
      );
    } else if (run.startsWith('timeout 3')) {
      out.push(
        `{ ${run} ; } > stream.out 2>&1; code=$?; if [ $code -ne 0 ] && [ $code -ne 124 ]; then echo "FAILED ($code): " ${quoted}; exit 1; fi; [ -s ` +
        `stream.out ] || { echo "EMPTY: " ${quoted}; exit 1; }`,
      );
    } else {
      out.push(`{ ${run} ; } >> commands.out 2>&1 || { echo "FAILED ($?): " ${quoted}; tail -c 400 commands.out; exit 1; }`);
    }
  }
  return `${out.join('\n')}\n`;
}

/** The README and the pages that hold what it held before it became a front door. */
const DOCUMENTS = ['README.md', ...['commands', 'http-api', 'operating', 'rooms', 'plugins', 'viewer'].map((name) => `docs/${name}.md`)];
const blocks = DOCUMENTS.flatMap((file) => shellBlocks(readFileSync(join(REPO, file), 'utf8')));
let plugins: string;

/** Waits for `/readyz`: a host's Python plugins load after it listens. */
const untilReady = (url: string) => waitFor(async () => ((await fetch(`${url}/readyz`)).status === 200 ? true : undefined), `${url} to be ready`);
let examples: RunningHost;
const ran: string[] = [];

beforeAll(async () => {
  // The example plugins as `npm start` serves them (build/out), not a second build of them here.
  plugins = builtExamplePlugins();
  examples = await spawnHost(['--port', '0', '--plugins', plugins, '--specimens', join(REPO, 'specimens'), '--log-level', 'warn']);
  // The README's `/readyz` line shows a host whose plugins have loaded.
  await untilReady(examples.url);
}, 180_000);
afterAll(killAllHosts);

/** Runs a block's runnable lines against `url` in a fresh folder holding the files they upload. */
async function runBlock(lines: Line[], url: string): Promise<void> {
  const cwd = mkdtempSync(join(tmpdir(), 'vitrine-readme-run-'));
  writeFileSync(join(cwd, 'scan.stl'), binaryStl());
  writeFileSync(join(cwd, '.curlrc'), 'fail-with-body\n');
  const file = join(cwd, 'block.sh');
  writeFileSync(file, script(lines, url));
  const result = await promisify(execFile)('bash', [file], { cwd, env: { ...process.env, CURL_HOME: cwd } }).catch(
    (error: { stdout?: string; stderr?: string }) => error,
  );
  expect(`${result.stdout ?? ''}${result.stderr ?? ''}`).not.toMatch(/FAILED|EMPTY/);
  ran.push(...lines.map((l) => l.command));
}

describe("the README's commands", () => {
  it('every npx vitrine serve and worker line has options the command takes', () => {
    const lines = blocks.flat().map((l) => l.command);
    const serves = lines.map((c) => argsOf(c, 'serve')).filter((a): a is string[] => a !== null);
    expect(serves.length).toBeGreaterThan(4);
    for (const args of serves) expect(() => parseServeOptions(args, {}), args.join(' ')).not.toThrow();
    const workers = lines.map((c) => argsOf(c, 'worker')).filter((a): a is string[] => a !== null);
    expect(workers.length).toBeGreaterThan(0);
    for (const args of workers) expect(() => parseWorkerOptions(args, {}), args.join(' ')).not.toThrow();
  });

  it('the curl examples answer as printed, against the host of their block', async () => {
    for (const lines of blocks) {
      const runs = lines.filter(runnable);
      if (!runs.some((l) => l.command.startsWith('curl'))) continue;
      const serve = lines.map((l) => argsOf(l.command, 'serve')).find((a) => a !== null);
      if (serve && serve.some((arg) => /^--(host|relay|join|redis|https-port)$/.test(arg))) continue;
      if (!serve) {
        await runBlock(runs, examples.url);
        continue;
      }
      const own = await spawnHost([...serve, '--port', '0', '--plugins', plugins, '--specimens', join(REPO, 'specimens'), '--log-level', 'warn']);
      try {
        await untilReady(own.url);
        await runBlock(runs, own.url);
      } finally {
        await own.stop();
      }
    }
    // The examples of the HTTP API, downloads, deliveries, inputs and operations all ran.
    expect(ran.filter((c) => c.startsWith('curl')).length).toBeGreaterThan(30);
    expect(ran).toContain('curl -s -OJ "$H/api/specimens/torus/data?format=stl"');
  }, 240_000);
});
