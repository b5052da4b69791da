/**
 * @module lazy-child-logger
 * A request's logger, made only when something logs through it. Fastify gives every request a
 * child of the host's logger with the request's id bound into each line; most requests (every
 * cache hit) never log, and making a pino child writes its bindings out as JSON each time.
 * This stands in for the child and makes it on the first line logged (or the first child or
 * level change asked of it); until then the level read is the parent's, which a child inherits.
 */
import type { FastifyBaseLogger } from 'fastify';

type Bindings = Parameters<FastifyBaseLogger['child']>[0];
type ChildLoggerOptions = NonNullable<Parameters<FastifyBaseLogger['child']>[1]>;
type Log = (...args: unknown[]) => void;

const LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

export class LazyChildLogger implements FastifyBaseLogger {
  readonly #parent: FastifyBaseLogger;
  readonly #bindings: Bindings;
  readonly #options: ChildLoggerOptions;
  #child: FastifyBaseLogger | null = null;
  declare fatal: FastifyBaseLogger['fatal'];
  declare error: FastifyBaseLogger['error'];
  declare warn: FastifyBaseLogger['warn'];
  declare info: FastifyBaseLogger['info'];
  declare debug: FastifyBaseLogger['debug'];
  declare trace: FastifyBaseLogger['trace'];
  declare silent: FastifyBaseLogger['silent'];

  constructor(parent: FastifyBaseLogger, bindings: Bindings, options: ChildLoggerOptions) {
    this.#parent = parent;
    this.#bindings = bindings;
    this.#options = options;
  }

  /** The child itself, made now if it was not yet. */
  get made(): FastifyBaseLogger {
    return (this.#child ??= this.#parent.child(this.#bindings, this.#options));
  }

  get level(): string {
    return (this.#child ?? (this.#options.level === undefined ? this.#parent : this.made)).level;
  }

  set level(level: string) {
    this.made.level = level;
  }

  /** Whether a line at `level` would be written (pino's own test; no child is made for it). */
  isLevelEnabled(level: string): boolean {
    const logger = (this.#child ?? this.#parent) as FastifyBaseLogger & { isLevelEnabled?: (level: string) => boolean };
    return logger.isLevelEnabled ? logger.isLevelEnabled(level) : true;
  }

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.made.child(bindings, options);
  }
}

// Each level's method writes through the child, made by the first line logged.
for (const level of LEVELS) {
  LazyChildLogger.prototype[level] = function (this: LazyChildLogger, ...args: unknown[]) {
    (this.made[level] as Log)(...args);
  };
}

/** Fastify's `childLoggerFactory`: a lazy child for each request. */
export function lazyChildLogger(logger: FastifyBaseLogger, bindings: Bindings, options: ChildLoggerOptions): FastifyBaseLogger {
  return new LazyChildLogger(logger, bindings, options);
}
