/**
 * @module prepare-start
 * What `npm start` does before it serves: compiles the package and builds the example plugins,
 * each only when one of its inputs changed since it was last made (input-stamp.mjs), so a
 * second start with nothing changed goes straight to serving. A step that fails ends the
 * start with its exit code; its stamp is then left as it was, so the next start tries again.
 *
 * Usage: `node build/tools/start/prepare-start.mjs`
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { compileInputs, compileStampOf, isCurrent, pluginInputs, pluginsStampOf, REPO_ROOT, stampOf, writeStamp } from '../compile/input-stamp.mjs';

/** Runs node with `args` in `root`, passing its output through; its exit code. */
function runNode(root, args) {
  return spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit' }).status ?? 1;
}

/**
 * Brings the checkout at `root` up to date: `run(args)` runs node with `args` and answers its
 * exit code; `say(line)` reports. Answers 0, or the exit code of the step that failed.
 */
export function prepareStart(root = REPO_ROOT, run = (args) => runNode(root, args), say = (line) => process.stdout.write(`${line}\n`)) {
  if (isCurrent(compileStampOf(root), stampOf(compileInputs(root)))) say('build/dist is up to date: nothing to compile');
  else {
    // compile.ts takes its own stamp and writes it once the distribution is complete.
    const code = run(['--import', 'tsx', path.join('build', 'tools', 'compile', 'compile.ts')]);
    if (code !== 0) return code;
  }
  // Taken before the build reads the plugins: a plugin saved meanwhile is built again next time.
  const stamp = stampOf(pluginInputs(root));
  if (existsSync(path.join(root, 'build', 'out')) && isCurrent(pluginsStampOf(root), stamp)) {
    say('build/out is up to date: no plugin changed since it was built');
    return 0;
  }
  const code = run([path.join('build', 'dist', 'core', 'cli', 'bin.js'), 'build']);
  if (code === 0) writeStamp(pluginsStampOf(root), stamp);
  return code;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) process.exitCode = prepareStart();
