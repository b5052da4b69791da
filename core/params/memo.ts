/**
 * @module memo
 * The host's identity-keyed memos: something worked out of an object once, kept beside the
 * object for as long as it lives. The hot path (every cache hit of `/data`) leans on them: a
 * schema's compiled validator, its input parameters, a specimen's refinement of its function's
 * schema, the values of a `params` text, the hash of a values object, a result's envelope.
 *
 * The invariant every key keeps: **a key object is never changed once it has been used as a
 * key.** Schemas are made once per registration, reload or refinement and never edited (a
 * reloaded plugin or a changed specimen.json brings new objects); values handed out by a memo
 * are deeply frozen (deepFreeze) so that no request can change what the next one gets; results
 * are not written once held. That is why nothing here is ever invalidated by hand: a changed
 * thing is a new object, and an entry dies with its key (the tables are WeakMaps, so an
 * entry goes when its key is collected, never sooner).
 *
 * Code that needs to change a value it got from here (a function registered in code changing
 * an array parameter) works on its own copy (invoke/inline-invoker.ts).
 */

/** A function of one object, worked out once per object. */
export function memoByIdentity<K extends object, V>(make: (key: K) => V): (key: K) => V {
  const made = new WeakMap<K, V>();
  return (key) => {
    const known = made.get(key);
    if (known !== undefined || made.has(key)) return known as V;
    const value = make(key);
    made.set(key, value);
    return value;
  };
}

/** A function of two objects, worked out once per pair. */
export function memoByPair<A extends object, B extends object, V>(make: (a: A, b: B) => V): (a: A, b: B) => V {
  const byFirst = memoByIdentity((a: A) => memoByIdentity((b: B) => make(a, b)));
  return (a, b) => byFirst(a)(b);
}

/**
 * A memo of `V` by object identity that is only filled on request (`remember`): for values
 * worth keeping for some keys only (the hash of a frozen values object, not of a mutable one).
 */
export function identityTable<K extends object, V>(): { get(key: K): V | undefined; remember(key: K, value: V): V } {
  const made = new WeakMap<K, V>();
  return {
    get: (key) => made.get(key),
    remember: (key, value) => {
      made.set(key, value);
      return value;
    },
  };
}

/** Freezes a JSON value and everything in it, so that it can be shared and keyed on. */
export function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}
