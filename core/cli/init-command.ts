/**
 * @module init-command
 * `vitrine init DIR [--vitrine SPEC] [--python]`: writes a plugin project into DIR (which must
 * be absent or empty), with a TypeScript plugin, or with `--python` a Python one. The project depends on vitrine at the running version (the same tarball when
 * the running one was installed from one) unless `--vitrine` gives another spec; a spec naming
 * an existing file or folder (a packed tarball, a checkout) is written as a `file:` path
 * relative to DIR. Exit codes: 0 written, 2 usage errors or DIR not
 * empty.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { displayPath } from '../../build/diagnostics/format-diagnostic.ts';
import { PACKAGE_ROOT } from '../loading/package-layout.ts';
import { pythonScaffoldFiles } from '../../build/init/python-scaffold-files.ts';
import { scaffoldFiles } from '../../build/init/scaffold-files.ts';
import { fail, say } from './command-exit.ts';

export const INIT_USAGE = `usage: vitrine init DIR [--vitrine SPEC] [--python]

  DIR             the project folder to create (absent or empty)
  --vitrine SPEC  the vitrine dependency: a version range, or a path to a packed tarball
                  (default: ^ the running version)
  --python        a project whose plugin is written in Python (plugins/<name>/plugin.py)
`;

interface OwnPackage {
  version: string;
  devDependencies?: Record<string, string>;
  /** The dependencies whose install scripts npm may run: the project installs them too. */
  allowScripts?: Record<string, boolean>;
}

function parse(argv: string[]): { dir: string; spec: string | undefined; python: boolean } | { error: string } | { help: true } {
  let dir: string | undefined;
  let spec: string | undefined;
  let python = false;
  for (let index = 0; index < argv.length; index++) {
    const arg = argv[index]!;
    if (arg === '--help' || arg === '-h') return { help: true };
    if (arg === '--python') python = true;
    else if (arg === '--vitrine' || arg.startsWith('--vitrine=')) {
      spec = arg === '--vitrine' ? argv[++index] : arg.slice('--vitrine='.length);
      if (!spec) return { error: '--vitrine needs a dependency spec' };
    } else if (arg.startsWith('-')) return { error: `unknown option '${arg}'` };
    else if (dir === undefined) dir = arg;
    else return { error: `unexpected argument '${arg}' (only one DIR)` };
  }
  return dir === undefined ? { error: 'DIR is missing' } : { dir, spec, python };
}

/** An npm package name from a folder name. */
function packageNameOf(dir: string): string {
  const name = path.basename(dir).toLowerCase().replace(/[^a-z0-9._-]+/g, '-').replace(/^[._-]+|-+$/g, '');
  return name || 'vitrine-plugins';
}

/** A spec naming an existing local file or folder (resolved against `base`) as a `file:` path relative to the project. */
function localSpec(spec: string, base: string, projectDir: string): string | null {
  const local = path.resolve(base, spec.startsWith('file:') ? spec.slice('file:'.length) : spec);
  if (!existsSync(local)) return null;
  const relative = path.relative(projectDir, local).split(path.sep).join('/');
  return `file:${relative.startsWith('.') ? relative : `./${relative}`}`;
}

/**
 * The running vitrine as a dependency spec: when it was installed from a local file (a packed
 * tarball, also through npx), that same file; otherwise a range of its version.
 */
function runningSpec(projectDir: string, own: OwnPackage): string {
  if (path.basename(path.dirname(PACKAGE_ROOT)) === 'node_modules') {
    const installer = path.dirname(path.dirname(PACKAGE_ROOT));
    try {
      const pkg = JSON.parse(readFileSync(path.join(installer, 'package.json'), 'utf8')) as {
        dependencies?: Record<string, string>;
        devDependencies?: Record<string, string>;
      };
      const spec = pkg.dependencies?.vitrine ?? pkg.devDependencies?.vitrine;
      const local = spec?.startsWith('file:') ? localSpec(spec, installer, projectDir) : null;
      if (local) return local;
    } catch {
      // No readable package.json above the install: fall back to the version.
    }
  }
  return `^${own.version}`;
}

/** Runs `vitrine init` with `argv` (the arguments after `init`); returns the exit code. */
export function runInitCommand(argv: string[]): number {
  const cwd = process.cwd();
  const args = parse(argv);
  if ('help' in args) return say(INIT_USAGE);
  if ('error' in args) return fail(2, `vitrine init: ${args.error}\n${INIT_USAGE}`);
  const projectDir = path.resolve(cwd, args.dir);
  if (existsSync(projectDir) && readdirSync(projectDir).length > 0)
    return fail(2, `vitrine init: ${displayPath(projectDir, cwd)} is not empty; choose a new folder\n`);
  const own = JSON.parse(readFileSync(path.join(PACKAGE_ROOT, 'package.json'), 'utf8')) as OwnPackage;
  const packageName = packageNameOf(projectDir);
  const plugin = packageName.replace(/^[^a-z0-9]+/, '') || 'shapes';
  const vitrineSpec = args.spec === undefined ? runningSpec(projectDir, own) : (localSpec(args.spec, cwd, projectDir) ?? args.spec);
  const allowScripts = own.allowScripts ?? {};
  const files = args.python
    ? pythonScaffoldFiles({ packageName, plugin, vitrineSpec, allowScripts })
    : scaffoldFiles({
        packageName,
        plugin,
        vitrineSpec,
        allowScripts,
        tsxSpec: own.devDependencies?.tsx ?? '^4.0.0',
        typesNodeSpec: own.devDependencies?.['@types/node'] ?? '^20.0.0',
        typescriptSpec: own.devDependencies?.typescript ?? '^5.0.0',
      });
  for (const [relative, text] of files) {
    const file = path.join(projectDir, ...relative.split('/'));
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, text);
  }
  const shown = displayPath(projectDir, cwd);
  process.stdout.write(
    `created ${shown} with plugin '${plugin}' (${[...files.keys()].join(', ')})\n\nnext:\n  cd ${shown}\n  npm install\n  npm test\n  npx vitrine dev\n`,
  );
  return 0;
}
