/**
 * `npm test` after its set-up: the compile first (the suite runs the compiled command), then
 * three things at once: the type check, the lint, and the tests (the example plugins built and
 * checked, then vitest). The type check and the lint are each one process on one core; the
 * suite leaves a third of two cores idle while its tests wait on processes, sockets and
 * browsers, which is where the checks now run instead of in a minute of their own before it.
 * The tests' output streams as it comes; each check's is printed whole when it ends (never
 * interleaved with another's). The exit code is the first failure's, once all have ended.
 */
import { spawn } from 'node:child_process';

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/** Runs `command` with its output kept, then printed whole under a line saying how it went. */
function quietly(name, command, args, env = process.env) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], env });
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
}

/** Runs `command` with its output straight through. */
function aloud(command, args, env = process.env) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: 'inherit', env });
    child.on('error', (error) => {
      process.stderr.write(`${error.message}\n`);
      resolve(1);
    });
    child.on('close', (code) => resolve(code ?? 1));
  });
}

/** The example plugins built and checked, then the tests against the compiled command. */
async function tests() {
  for (const args of [['build'], ['build', '--check']]) {
    const code = await aloud(process.execPath, ['core/cli/vitrine.mjs', ...args]);
    if (code !== 0) return code;
  }
  // Arguments given (`npm test -- test/unit`) go to vitest: the gates and only those tests.
  const vitest = ['node_modules/vitest/vitest.mjs', 'run', '--config', 'test/vitest.config.ts', ...process.argv.slice(2)];
  return aloud(process.execPath, vitest, { ...process.env, VITRINE_TEST_CLI: 'compiled' });
}

const compiled = await quietly('npm run compile', npm, ['run', '--silent', 'compile']);
if (compiled !== 0) {
  process.exitCode = compiled;
} else {
  const check = (script) => quietly(`npm run ${script}`, npm, ['run', '--silent', script]);
  const codes = await Promise.all([check('typecheck'), check('lint'), tests()]);
  process.exitCode = codes.find((code) => code !== 0) ?? 0;
}
