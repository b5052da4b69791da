/**
 * @module plugin-metrics
 * The series of `/metrics` that say what a host serves and from where: each plugin's serving
 * version (its bundle and how its signature checked out), how many versions of it are kept,
 * its functions and declared specimens, and what its last reload refused; and per federation
 * worker connected (relay only), the specimens it serves. Read from the kept versions and the
 * catalog at each scrape, so a plugin removed or a worker gone leaves no series behind.
 */
import type { Registry } from 'prom-client';
import type { HostContext } from '../../host-context.ts';
import { gauge } from './figure-series.ts';

export function registerPluginMetrics(registry: Registry, ctx: Pick<HostContext, 'plugins' | 'catalog'>): void {
  const records = () => ctx.plugins.versions.list();
  const infoHelp = 'Each plugin’s serving version: 1, labelled with the version, its bundle id and its signature check';
  gauge(registry, 'vitrine_plugin_info', infoHelp, (g) => {
    g.reset();
    for (const { name, versions } of records()) {
      const serving = versions[0];
      if (serving) g.set({ plugin: name, version: serving.version, bundle: serving.bundle.slice(0, 12), signature: serving.signature }, 1);
    }
  }, ['plugin', 'version', 'bundle', 'signature']);
  /** A series with one number a plugin, read from its kept versions at each scrape. */
  const perPlugin = (name: string, help: string, count: (record: ReturnType<typeof records>[number]) => number) =>
    gauge(registry, name, help, (g) => {
      g.reset();
      for (const record of records()) g.set({ plugin: record.name }, count(record));
    }, ['plugin']);
  perPlugin('vitrine_plugin_versions_kept', 'Versions of each plugin kept (the serving one and those pinned or kept for rollback)', (r) => r.versions.length);
  gauge(registry, 'vitrine_plugin_functions', 'Functions and declared specimens of each plugin’s serving version', (g) => {
    g.reset();
    for (const { name, versions } of records()) {
      g.set({ plugin: name, what: 'functions' }, versions[0]?.functions.length ?? 0);
      g.set({ plugin: name, what: 'specimens' }, versions[0]?.specimens.length ?? 0);
    }
  }, ['plugin', 'what']);
  perPlugin('vitrine_plugin_problems', 'What the last reload of each plugin refused (0: nothing)', (r) => r.problems.length);
  gauge(registry, 'vitrine_federation_worker_specimens', 'Specimens each connected federation worker serves (relay only)', (g) => {
    g.reset();
    const counts = new Map<string, number>();
    for (const entry of ctx.catalog.list()) if (entry.worker_id) counts.set(entry.worker_id, (counts.get(entry.worker_id) ?? 0) + 1);
    for (const [worker, n] of counts) g.set({ worker }, n);
  }, ['worker']);
}
