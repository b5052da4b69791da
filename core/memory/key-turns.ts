/**
 * @module key-turns
 * Work run one at a time per key: each work starts once the key's earlier work has ended,
 * however it ended. A key is forgotten once its last work has ended.
 */

/** Runs `work` once every earlier work `turns` holds for `key` has ended. */
export function inTurn<T>(turns: Map<string, Promise<unknown>>, key: string, work: () => Promise<T>): Promise<T> {
  const before = turns.get(key) ?? Promise.resolve();
  const run = before.then(work, work);
  const settled = run.catch(() => undefined);
  turns.set(key, settled);
  void settled.then(() => turns.get(key) === settled && turns.delete(key));
  return run;
}
