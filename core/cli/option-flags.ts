/**
 * @module option-flags
 * Every flag of the host's commands, read the same way by `vitrine serve`, `vitrine dev` and
 * `vitrine worker`: each may also be set as `VITRINE_<NAME>` in the environment
 * (`--cache-ttl` and `VITRINE_CACHE_TTL`), and a flag wins over the environment. The value
 * checks here give readable messages; defaults are filled once, by resolveHostOptions.
 */
import { parseArgs } from 'node:util';

/** The flags that take a value, topic by topic; the others (`--relay`, `--no-viewer`, `--help`) are switches. */
const VALUE_FLAGS = [
  'host', 'port', 'https-port', 'tls-cert', 'tls-key', 'tls-dir',
  'specimens', 'plugins', 'cache-ttl', 'job-ttl', 'pool-size',
  'python', 'python-processes', 'python-max-bytes', 'python-max-children',
  'compute-timeout', 'cache-max-bytes', 'max-jobs', 'max-event-streams', 'cors-origin', 'admin-token', 'room-threads',
  'redis', 'compute', 'blob-store', 's3-endpoint', 's3-timeout', 'accel-redirect', 'join', 'worker-id', 'token',
  'envelope-media-type', 'log-level', 'log-format', 'client-profiles', 'headset-triangles', 'mesh-lod-triangles',
  'allowed-hosts', 'request-timeout', 'write-timeout', 'max-event-loop-delay', 'max-rss',
  'uploads', 'max-upload-bytes', 'max-delivery-bytes', 'upload-ttl', 'published-ttl', 'max-annotations', 'snapshot-ttl',
  'data-dir', 'disk-cache-max-bytes', 'log-ttl', 'plugin-versions', 'trust-keys', 'signatures', 'trust-proxy', 'user-header',
  'agent-model', 'agent-provider', 'agent-url', 'agent-turn-timeout', 'agent-max-rooms', 'agent-max-queued', 'agent-context-bytes', 'stt-url', 'tts-url',
  'remote-timeout', 'max-remote-bytes',
] as const;

export const FLAGS = {
  ...(Object.fromEntries(VALUE_FLAGS.map((name) => [name, { type: 'string' }])) as Record<(typeof VALUE_FLAGS)[number], { type: 'string' }>),
  /** Repeatable: each `--remote NAME=URL` names one remote (read back one per line). */
  remote: { type: 'string', multiple: true },
  relay: { type: 'boolean' },
  'no-viewer': { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

function envName(flag: string): string {
  return `VITRINE_${flag.toUpperCase().replace(/-/g, '_')}`;
}

export function number(flag: string, raw: string | undefined, integer: boolean): number | undefined {
  if (raw === undefined) return undefined;
  const value = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(value) || value < 0 || (integer && !Number.isInteger(value))) {
    throw new Error(`--${flag} must be a non-negative ${integer ? 'integer' : 'number'}, got '${raw}'`);
  }
  return value;
}

/** A directory option: `none` (or an empty value) means no directory. */
export function directory(raw: string | undefined, fallback: string): string | null {
  if (raw === undefined) return fallback;
  return raw.trim() === '' || raw.trim().toLowerCase() === 'none' ? null : raw;
}

export function list(raw: string | undefined): string[] | null {
  if (raw === undefined) return null;
  const items = raw.split(',').map((item) => item.trim()).filter((item) => item !== '');
  if (items.length === 0) throw new Error('--allowed-hosts needs at least one host name (or *)');
  return items;
}

/**
 * Every on/off flag (`--relay`, `--no-viewer`, `--client-profiles`, `--uploads`), given on the
 * command line or as `VITRINE_<NAME>`: on, true, 1 or yes; off, false, 0 or no; anything else
 * is refused rather than read as off.
 */
export function onOff(flag: string, raw: string | undefined): boolean | undefined {
  if (raw === undefined) return undefined;
  const value = raw.trim().toLowerCase();
  if (['on', 'true', '1', 'yes'].includes(value)) return true;
  if (['off', 'false', '0', 'no'].includes(value)) return false;
  throw new Error(`--${flag} must be on or off, got '${raw}'`);
}

/**
 * `--cors-origin`: `none`, or a comma-separated list of origins (`scheme://host[:port]`, no
 * path) and `*` (any page may read; only the origins named may write).
 */
export function corsOrigin(raw: string | undefined): string | undefined {
  if (raw === undefined || raw.trim() === '*' || raw.trim() === 'none') return raw;
  for (const origin of raw.split(',').map((o) => o.trim())) {
    if (origin !== '*' && !/^https?:\/\/[^/\s?#]+$/.test(origin)) {
      throw new Error(`--cors-origin takes *, none, or origins like https://viewer.example:8443 (no path), got '${origin}'`);
    }
  }
  return raw;
}

/** A flag that takes a positive integer (0 refused). */
export function positiveInteger(flag: string, raw: string | undefined): number | undefined {
  const value = number(flag, raw, true);
  if (value === 0) throw new Error(`--${flag} must be a positive integer, got 0`);
  return value;
}

/** The flags one command accepts. */
export type FlagName = Exclude<keyof typeof FLAGS, 'help'>;

/** A flag's value: from the command line, else from `VITRINE_<NAME>`, else undefined. */
export type FlagReader = (flag: FlagName) => string | undefined;

/**
 * Reads `argv` strictly against `names` (an unknown flag is an error) with the environment
 * behind it. `vitrine serve` and `vitrine worker` both read their options this way.
 */
export function readFlags(argv: string[], names: readonly FlagName[], env: NodeJS.ProcessEnv = process.env): { get: FlagReader; help: boolean } {
  const options = Object.fromEntries([...names, 'help' as const].map((name) => [name, FLAGS[name]]));
  const { values } = parseArgs({ args: argv, options, strict: true, allowPositionals: false });
  const get: FlagReader = (flag) => {
    if (!names.includes(flag)) return undefined;
    const v = values[flag];
    if (Array.isArray(v)) return v.join('\n');
    return typeof v === 'string' ? v : typeof v === 'boolean' ? String(v) : env[envName(flag)];
  };
  return { get, help: values.help === true };
}

/** `--python PATH`, `--python-processes N` and the Python limits, shared by `vitrine serve` and `vitrine worker`. */
export function pythonOptions(get: FlagReader): { python?: string; pythonProcesses?: number; pythonMaxBytes?: number; pythonMaxChildren?: number } {
  const python = get('python');
  if (python !== undefined && python.trim() === '') throw new Error('--python needs the path of a Python interpreter');
  const pythonProcesses = number('python-processes', get('python-processes'), true);
  if (pythonProcesses === 0) throw new Error('--python-processes must be at least 1');
  const pythonMaxBytes = number('python-max-bytes', get('python-max-bytes'), true);
  return { python, pythonProcesses, pythonMaxBytes, pythonMaxChildren: number('python-max-children', get('python-max-children'), true) };
}
