/**
 * @module load-once
 * A module (or anything else slow to make) loaded by its first use rather than at start: the
 * first call runs `load`, later calls share its promise, and a failed load is run again by the
 * next call (a transient failure is not kept for the process's life). Used for what most hosts
 * or threads never touch: the agents' SDK, glTF-Transform, a worker thread's task modules.
 */

/** `load` run by the first call and shared by the later ones; a failed load is run again by the next call. */
export function loadOnce<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | null = null;
  return () => {
    loading ??= load().catch((error: unknown) => {
      loading = null;
      throw error;
    });
    return loading;
  };
}
