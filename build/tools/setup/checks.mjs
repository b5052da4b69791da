/**
 * The checks `npm test` runs before its tests, at once rather than one after another: the type
 * check, the lint and the package's compile are each one process bound to one core, and the
 * suite runs on two. Each one's output is printed whole when it ends (never interleaved); the
 * first failure is the exit code, after every check has ended.
 */
import { spawn } from 'node:child_process';

const CHECKS = ['typecheck', 'lint', 'compile'];
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

function run(script) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(npm, ['run', '--silent', script], { stdio: ['ignore', 'pipe', 'pipe'] });
    const out = [];
    child.stdout.on('data', (chunk) => out.push(chunk));
    child.stderr.on('data', (chunk) => out.push(chunk));
    child.on('error', (error) => out.push(Buffer.from(`${error.message}\n`)));
    child.on('close', (code) => {
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      process.stdout.write(`\n> npm run ${script} (${code === 0 ? 'passed' : `failed, exit ${code}`}, ${seconds} s)\n`);
      process.stdout.write(Buffer.concat(out));
      resolve(code ?? 1);
    });
  });
}

const codes = await Promise.all(CHECKS.map(run));
process.exitCode = codes.find((code) => code !== 0) ?? 0;
