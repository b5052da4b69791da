/**
 * @module failed-builds
 * The last failed build of each plugin, as the host stream carried it: a `build-error` stands
 * until a `reload` of that plugin (a good build swapped in, or the plugin removed) replaces it.
 * A host stream opened later starts with them, so a page opened after a failed build shows
 * the error as one open at the time did.
 */
import { HOST_CHANNEL } from './channels.ts';
import type { EventHub, HostEvent } from './event-hub.ts';

/** What of a `build-error` or `reload` event's data names its plugin. */
function pluginOf(event: HostEvent): string | null {
  const plugin = (event.data as { plugin?: unknown } | null)?.plugin;
  return typeof plugin === 'string' ? plugin : null;
}

export class FailedBuilds {
  readonly #failed = new Map<string, HostEvent>();
  readonly #off: () => void;

  /** Follows the host channel of `hub` until {@link close}. */
  constructor(hub: EventHub) {
    this.#off = hub.tap((channel, event) => {
      if (channel !== HOST_CHANNEL) return;
      const plugin = pluginOf(event);
      if (plugin === null) return;
      if (event.event === 'build-error') {
        // Listed again at the end: the newest failure is the last one a new stream hears.
        this.#failed.delete(plugin);
        this.#failed.set(plugin, event);
      } else if (event.event === 'reload') {
        this.#failed.delete(plugin);
      }
    });
  }

  /** The `build-error` events that still stand, oldest first. */
  current(): HostEvent[] {
    return [...this.#failed.values()];
  }

  close(): void {
    this.#off();
  }
}
