/**
 * `npm test` after its set-up. The compile comes first (the tests run the compiled command),
 * then the example plugins are built and checked and vitest starts, while the type check and
 * the lint run beside the tests at the lowest CPU priority.
 *
 * Why beside, and why niced: the gates are about 85 s of CPU, which before the tests held two
 * cores for 40-45 s; the tests leave about a third of two cores idle while they wait on hosts,
 * sockets and browsers. Run at an equal priority beside them the gates slowed every test at
 * the suite's start (a run grew by 25 s and a lab walkthrough timed out); at nice 19 the
 * scheduler gives them only what the tests leave, so they finish in the first minutes of a
 * fifteen-minute suite without taking a core from it.
 *
 * A gate's output is printed whole when it ends (never interleaved with the tests'); the tests'
 * streams as it comes. A gate that fails stops the tests at once, so a type error is reported
 * in a minute, not after the suite. The exit code is the first failure's. Arguments go to
 * vitest (`npm test -- test/unit`): the gates, then only those tests.
 */
import { spawn } from 'node:child_process';

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
/** The gates' priority: only the CPU the tests leave (nice(1) has it on every Unix). */
const niced = (command, args) => (process.platform === 'win32' ? [command, args] : ['nice', ['-n', '19', command, ...args]]);

/** Runs `command` with its output kept, then printed whole under a line saying how it went. */
function quietly(name, command, args, env = process.env) {
  let child;
  const done = new Promise((resolve) => {
    const started = Date.now();
    child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], env });
    const out = [];
    child.stdout.on('data', (chunk) => out.push(chunk));
    child.stderr.on('data', (chunk) => out.push(chunk));
    child.on('error', (error) => out.push(Buffer.from(`${error.message}\n`)));
    child.on('close', (code) => {
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      process.stdout.write(`\n> ${name} (${code === 0 ? 'passed' : `failed, exit ${code}`}, ${seconds} s)\n`);
      process.stdout.write(Buffer.concat(out));
      resolve(code ?? 1);
    });
  });
  return { done, child };
}

/** Runs `command` with its output straight through; `detached` makes it a process group of its own. */
function aloud(command, args, env = process.env, detached = false) {
  let child;
  const done = new Promise((resolve) => {
    child = spawn(command, args, { stdio: 'inherit', env, detached });
    child.on('error', (error) => {
      process.stderr.write(`${error.message}\n`);
      resolve(1);
    });
    child.on('close', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
  return { done, child };
}

/** The example plugins built and checked, then vitest against the compiled command. */
function tests() {
  let vitest = null;
  let stopped = false;
  const done = (async () => {
    for (const args of [['build'], ['build', '--check']]) {
      const code = await aloud(process.execPath, ['core/cli/vitrine.mjs', ...args]).done;
      if (code !== 0 || stopped) return code || 1;
    }
    const argv = ['node_modules/vitest/vitest.mjs', 'run', '--config', 'test/vitest.config.ts', ...process.argv.slice(2)];
    vitest = aloud(process.execPath, argv, { ...process.env, VITRINE_TEST_CLI: 'compiled' }, process.platform !== 'win32');
    return vitest.done;
  })();
  /** Ends the tests and everything they started (vitest's whole process group). */
  const stop = (signal = 'SIGTERM') => {
    stopped = true;
    if (!vitest?.child.pid) return;
    try {
      if (process.platform === 'win32') vitest.child.kill(signal);
      else process.kill(-vitest.child.pid, signal);
    } catch {
      // Already gone.
    }
  };
  return { done, stop };
}

const compiled = await quietly('npm run compile', npm, ['run', '--silent', 'compile']).done;
if (compiled !== 0) {
  process.exitCode = compiled;
} else {
  const suite = tests();
  // The tests run in a process group of their own (so that a failed gate can end them with
  // all they started); a Ctrl-C at the terminal reaches this group only and is passed on.
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => suite.stop(signal));
  const gate = (script) =>
    quietly(`npm run ${script}`, ...niced(npm, ['run', '--silent', script])).done.then((code) => {
      if (code !== 0) {
        process.stdout.write(`\n> ${script} failed: the tests are stopped\n`);
        suite.stop();
      }
      return code;
    });
  const codes = await Promise.all([gate('typecheck'), gate('lint'), suite.done]);
  process.exitCode = codes.find((code) => code !== 0) ?? 0;
}
