/**
 * @module build-args
 * Parses `vitrine build [SRC] [--out DIR] [--check] [--python PATH] [--against DIR|git:REF]
 * [--format text|json]`; paths are resolved against the cwd (the interpreter is run as given: a
 * name is looked up on PATH).
 */
import path from 'node:path';

export interface BuildArgs {
  srcDir: string;
  outDir: string;
  check: boolean;
  /** The interpreter that reads Python plugins, when given (else VITRINE_PYTHON, else python3). */
  python?: string;
  /** The earlier build to compare with: a build output folder (absolute), or `git:<ref>`. */
  against?: string;
  /** How `--against` prints its changes. @defaultValue `text` */
  format?: 'text' | 'json';
}

export const BUILD_DEFAULTS = Object.freeze({ src: 'plugins', out: path.join('build', 'out') });

export const BUILD_USAGE = `usage: vitrine build [SRC] [--out DIR] [--check] [--python PATH] [--against DIR|git:REF [--format json]]

  SRC            folder of plugin folders, each with an index.ts or a plugin.py (default: plugins)
  --out DIR      where bundle folders are written (default: build/out)
  --check        build in memory and compare with DIR; exit 1 when anything is stale or missing
  --python PATH  the Python 3.8+ that reads plugin.py files (default: $VITRINE_PYTHON, else python3)
  --against DIR|git:REF
                 compare every function with an earlier build (its output folder, or SRC as it was
                 at a git revision); exit 1 on a breaking change unless the major version went up
  --format json  print the changes --against finds as JSON (default: text, one line per change)
`;

/** The options that take a value (`--name VALUE` or `--name=VALUE`): what a value must be, and what a wrong one is told. */
const VALUE_OPTIONS = {
  out: { accepts: (value: string) => value !== '', error: '--out needs a directory' },
  python: { accepts: (value: string) => value !== '', error: '--python needs an interpreter' },
  against: { accepts: (value: string) => value !== '' && value !== 'git:', error: '--against needs a build output folder or git:<ref>' },
  format: { accepts: (value: string) => value === 'text' || value === 'json', error: '--format is text or json' },
} as const;

type ValueOption = keyof typeof VALUE_OPTIONS;

function valueOptionOf(arg: string): ValueOption | null {
  const name = /^--([a-z]+)(=|$)/.exec(arg)?.[1];
  return name !== undefined && Object.prototype.hasOwnProperty.call(VALUE_OPTIONS, name) ? (name as ValueOption) : null;
}

/** The parsed arguments, `{ help: true }`, or a usage error message. */
export function parseBuildArgs(argv: string[], cwd: string): BuildArgs | { help: true } | { error: string } {
  let src: string | undefined;
  let check = false;
  const values: Partial<Record<ValueOption, string>> = {};
  for (let index = 0; index < argv.length; index++) {
    const arg = argv[index]!;
    const option = valueOptionOf(arg);
    if (arg === '--help' || arg === '-h') return { help: true };
    if (arg === '--check') check = true;
    else if (option !== null) {
      const value = arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : argv[++index];
      if (value === undefined || !VALUE_OPTIONS[option].accepts(value)) return { error: VALUE_OPTIONS[option].error };
      values[option] = value;
    } else if (arg.startsWith('-')) return { error: `unknown option '${arg}'` };
    else if (src === undefined) src = arg;
    else return { error: `unexpected argument '${arg}' (only one SRC folder)` };
  }
  const { out, python, against, format } = values;
  if (format !== undefined && against === undefined) return { error: '--format applies to the changes --against prints' };
  return {
    srcDir: path.resolve(cwd, src ?? BUILD_DEFAULTS.src),
    outDir: path.resolve(cwd, out ?? BUILD_DEFAULTS.out),
    check,
    ...(python !== undefined ? { python } : {}),
    ...(against !== undefined ? { against: against.startsWith('git:') ? against : path.resolve(cwd, against) } : {}),
    ...(format === 'text' || format === 'json' ? { format } : {}),
  };
}
