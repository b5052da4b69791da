/**
 * @module compute-assembly
 * What computes in one process, put together one way for a host (`createApp`) and for a
 * compute-only `vitrine worker`: the room scheduler, the worker-thread pools sized from it,
 * the function registry and its reload from the plugins (and specimens) folders, and the
 * invokers (pooled for plugin bundles, inline for functions registered in code). A Redis
 * service adds a compute node on top (scale/compute-node.ts `createComputeNode`).
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { reloadSources, type PluginHome, type ReloadCounts } from '../versions/reload-sources.ts';
import { signatureMode } from '../bundles/plugin-options.ts';
import { readTrustedKeys } from '../bundles/bundle-signature.ts';
import { KeptBundles } from '../bundles/kept-bundles.ts';
import { lastingDataDir } from './open-durable.ts';
import { BUNDLES_DIR } from '../durable/disk-keys.ts';
import { loadPluginBundle, type LoadedPlugin } from '../registry/manifest-loader.ts';
import type { VersionSharing } from '../versions/version-sharing.ts';
import { describeChange, PluginVersions, warnsOf } from '../versions/plugin-versions.ts';
import { FunctionRegistry } from '../registry/function-registry.ts';
import type { SpecimenCatalog } from '../registry/specimen-catalog.ts';
import type { ResolvedHostOptions } from '../options.ts';
import { createPools, type Pools } from '../workers/pool.ts';
import { InlineInvoker } from '../invoke/inline-invoker.ts';
import { InvokerSet, type Invoker } from '../invoke/invoker.ts';
import { PooledInvoker } from '../invoke/pooled-invoker.ts';
import { RoomScheduler } from '../invoke/room-scheduler.ts';
import { PythonRuntime, RELOAD_IMPORT_WAIT_MS, type LeftOutPlugin } from '../python/python-runtime.ts';
import { SMALL_VARIANT_LANE } from '../delivery/variant-work.ts';
import { ThreadRetirement } from '../workers/thread-retirement.ts';
import type { NodeLog } from '../scale/compute-node.ts';

export type ComputeOptions = Pick<
  ResolvedHostOptions,
  | 'poolSize'
  | 'roomThreads'
  | 'cancelGraceMs'
  | 'specimensDir'
  | 'pluginsDir'
  | 'python'
  | 'pythonProcesses'
  | 'pythonMaxBytes'
  | 'pythonMaxChildren'
  | 'redis'
  | 'compute'
  | 'pluginVersions'
  | 'trustKeys'
  | 'signatures'
  | 'keptBundlesDir'
  | 'dataDir'
  | 'mode'
>;

export interface ComputeAssembly {
  scheduler: RoomScheduler;
  pools: Pools;
  functions: FunctionRegistry;
  /** Runs plugin bundle functions, rooms taking turns: JavaScript on the compute pool, Python in its processes. */
  plugins: Invoker;
  /** Invokers by function source (a relay adds `remote`). */
  invokers: InvokerSet;
  /** Python plugins' processes (started once a Python function is registered). */
  python: PythonRuntime;
  /** The plugin versions kept side by side and how bundles are checked. */
  home: PluginHome;
  /**
   * Loads the specimens directory and the plugin bundles again into `catalog` and the functions,
   * leaving out the Python plugins whose import fails (named among the problems, but on the first
   * load, when the process starts: then they are warned in the log as the imports end). On a
   * Redis service, `sharing` is the versions its hosts share (none before it is joined).
   */
  reload(catalog: SpecimenCatalog, sharing?: VersionSharing | null): Promise<ReloadCounts>;
  /** Stops the pools (after whatever uses them has stopped). */
  close(): Promise<void>;
}

/** The compute half of a process, saying what it does to `log` (the host's logger, or the worker's). */
export async function assembleCompute(options: ComputeOptions, log: NodeLog = SILENT): Promise<ComputeAssembly> {
  const scheduler = new RoomScheduler({ threads: options.poolSize, perRoom: options.roomThreads });
  // One encode thread for any work, and one more kept for variants of small results.
  const pools = await createPools({ computeThreads: scheduler.capacity, warmComputeThreads: scheduler.warmThreads, encodeThreads: 1 + SMALL_VARIANT_LANE });
  const functions = new FunctionRegistry();
  const pooled = new PooledInvoker(pools.compute, scheduler, { cancelGraceMs: options.cancelGraceMs });
  const python = new PythonRuntime(
    {
      python: options.python,
      processes: options.pythonProcesses,
      maxBytes: options.pythonMaxBytes,
      maxChildren: options.pythonMaxChildren,
      warm: options.redis === null || options.compute > 0,
      cancelGraceMs: options.cancelGraceMs,
      log,
    },
    scheduler,
  );
  // A bundle runs where its language runs: JavaScript on the worker-thread pool, Python in the host's Python processes.
  const plugins: Invoker = {
    invoke(entry, values, ctx) {
      const inPython = entry.source.kind === 'bundle' && entry.source.runtime === 'python';
      return (inPython ? python.invoker : pooled).invoke(entry, values, ctx);
    },
  };
  // A lone host keeps its plugins' older versions in its data folder, so pinned layers outlive a restart.
  const dataDir = lastingDataDir(options);
  const lasting = options.keptBundlesDir ?? (dataDir ? path.join(dataDir, BUNDLES_DIR) : null);
  const kept = new KeptBundles(lasting ?? mkdtempSync(path.join(tmpdir(), 'vitrine-bundles-')));
  const home: PluginHome = {
    versions: new PluginVersions(options.pluginVersions, kept),
    load: {
      kept,
      signatures: { mode: signatureMode(options), keys: options.trustKeys ? readTrustedKeys(options.trustKeys) : [] },
    },
  };
  let started = false;
  // Old versions' modules stay in the threads that imported them: the threads are retired now and then.
  const retirement = new ThreadRetirement(pools.compute);
  home.versions.onChange((change) => {
    if (!started) return;
    const modules = new Set(
      change.came.flatMap((p) => p.functions.flatMap((f) => (f.source.kind === 'bundle' && f.source.runtime !== 'python' ? [f.source.modulePath] : []))),
    );
    if (modules.size > 0) retirement.reloaded([...modules].reduce((sum, file) => sum + fileSize(file), 0));
  });
  return {
    scheduler,
    pools,
    functions,
    plugins,
    python,
    home,
    invokers: new InvokerSet({ bundle: plugins, inline: new InlineInvoker() }),
    reload: async (catalog, sharing = null) => {
      // Started on a data folder, or joining a service whose hosts share their versions: the
      // versions kept (or shared) come back first, the plugins folder's on top.
      if (!started) for (const problem of await restoreVersions(home, sharing, lasting !== null, log)) log.warn(problem);
      const { change, ...counts } = await reloadSources(options, functions, catalog, home);
      const line = describeChange(change);
      if (line) (warnsOf(change) ? log.warn : log.info)(line);
      if (sharing) await shareVersions(sharing, change.came, started, log);
      // Starting, nothing waits for the processes; later, a reload answers for what it loaded.
      const leftOut = await python.sync({ functions, catalog }, started ? RELOAD_IMPORT_WAIT_MS : 0);
      started = true;
      return withoutLeftOut(counts, leftOut, functions, catalog);
    },
    close: async () => {
      await python.close();
      await pools.destroy();
      if (!lasting) rmSync(kept.dir, { recursive: true, force: true });
    },
  };
}

/** The versions a host starts with before its plugins folder's: those it kept, or those its service shares. */
async function restoreVersions(home: PluginHome, sharing: VersionSharing | null, lasting: boolean, log: NodeLog): Promise<string[]> {
  const load = (dir: string) => loadPluginBundle(dir, home.load);
  if (!sharing) return lasting ? home.versions.restore(load) : [];
  try {
    return await home.versions.restore(load, await sharing.take());
  } catch (error) {
    log.warn(`the service's shared plugin versions could not be read (${(error as Error).message}); starting with the plugins folder's`);
    return [];
  }
}

/** Offers what a reload brought to the service's other hosts; after the first, takes what they brought. */
async function shareVersions(sharing: VersionSharing, came: LoadedPlugin[], started: boolean, log: NodeLog): Promise<void> {
  try {
    await sharing.offer(came);
    if (started) await sharing.catchUp();
  } catch (error) {
    log.warn(`plugin versions could not be shared with the service (${(error as Error).message})`);
  }
}

/** A reload's counts once the plugins whose import failed have left, and the lines naming them. */
function withoutLeftOut(counts: ReloadCounts, leftOut: LeftOutPlugin[], functions: FunctionRegistry, catalog: SpecimenCatalog): ReloadCounts {
  if (leftOut.length === 0) return counts;
  return {
    ...counts,
    specimens: catalog.list().length,
    functions: functions.size,
    plugins: counts.plugins - new Set(leftOut.map((p) => p.plugin)).size,
    problems: [...counts.problems, ...leftOut.map((p) => p.line)],
  };
}

const SILENT: NodeLog = { info: () => {}, warn: () => {} };

/** A bundle's size in bytes (0 when it cannot be read: it is counted as a reload all the same). */
function fileSize(file: string): number {
  try {
    return statSync(file).size;
  } catch {
    return 0;
  }
}
