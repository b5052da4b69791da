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

export class LazyChildLogger implements FastifyBaseLogger {
  readonly #parent: FastifyBaseLogger;
  readonly #bindings: Bindings;
  readonly #options: ChildLoggerOptions;
  #child: FastifyBaseLogger | null = null;

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

  fatal(...args: unknown[]): void {
    (this.made.fatal as Log)(...args);
  }

  error(...args: unknown[]): void {
    (this.made.error as Log)(...args);
  }

  warn(...args: unknown[]): void {
    (this.made.warn as Log)(...args);
  }

  info(...args: unknown[]): void {
    (this.made.info as Log)(...args);
  }

  debug(...args: unknown[]): void {
    (this.made.debug as Log)(...args);
  }

  trace(...args: unknown[]): void {
    (this.made.trace as Log)(...args);
  }

  silent(...args: unknown[]): void {
    (this.made.silent as Log)(...args);
  }

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.made.child(bindings, options);
  }
}

/** Fastify's `childLoggerFactory`: a lazy child for each request. */
export function lazyChildLogger(logger: FastifyBaseLogger, bindings: Bindings, options: ChildLoggerOptions): FastifyBaseLogger {
  return new LazyChildLogger(logger, bindings, options);
}
