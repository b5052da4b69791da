/**
 * @module host-events
 * Listens to the host's event stream (`GET /api/events`, Server-Sent Events; the browser
 * reconnects by itself): `hello` when it (re)opens, followed by every build error that still
 * stands; `reload` when a plugin was swapped in, `build-error` when one failed to build under
 * `vitrine dev`, `catalog` when specimens were published, replaced or removed.
 */
import type { BuildErrorEvent } from './build-error-overlay.ts';

/** The `reload` event's data; `plugin` is null after a reload of everything. */
export interface ReloadEvent {
  plugin: string | null;
  functions?: string[];
  specimens?: string[];
}

export interface HostEventHandlers {
  /** The stream (re)opened: what it sends next is the host's state from scratch. */
  hello?(): void;
  reload(event: ReloadEvent): void;
  buildError(event: BuildErrorEvent): void;
  /** The `catalog` event: the published specimens that changed. */
  catalog?(event: { specimens: string[] }): void;
}

/** Opens the stream; returns a function that closes it. */
export function watchHostEvents(handlers: HostEventHandlers): () => void {
  if (typeof EventSource === 'undefined') return () => {};
  const source = new EventSource('/api/events');
  const on = <T>(name: string, handler: (data: T) => void) =>
    source.addEventListener(name, (event) => {
      try {
        handler(JSON.parse((event as MessageEvent<string>).data) as T);
      } catch {
        // A malformed event is ignored; the next one is read.
      }
    });
  if (handlers.hello) on('hello', handlers.hello);
  on<ReloadEvent>('reload', handlers.reload);
  on<BuildErrorEvent>('build-error', handlers.buildError);
  if (handlers.catalog) on('catalog', handlers.catalog);
  return () => source.close();
}
