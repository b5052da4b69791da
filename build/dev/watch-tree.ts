/**
 * @module watch-tree
 * Watches a folder and every folder below it (except node_modules, Python's __pycache__ and
 * dot-folders) with one non-recursive fs.watch each, adding watchers as folders appear. Node
 * 20's recursive watch on Linux misses saves that replace a file (editors and `sed -i` write a
 * temp file and rename it over the original); per-folder watches see every rename into the
 * folder.
 */
import { readdirSync, statSync, watch, type FSWatcher } from 'node:fs';
import path from 'node:path';

/** Folders whose changes are never a plugin's sources. */
const IGNORED_FOLDERS = new Set(['node_modules', '__pycache__']);

export class TreeWatcher {
  readonly #watchers = new Map<string, FSWatcher>();
  readonly #onChange: (file: string) => void;

  /** Calls `onChange` with the absolute path of every changed, added or removed entry. */
  constructor(root: string, onChange: (file: string) => void) {
    this.#onChange = onChange;
    this.#add(root);
  }

  #add(dir: string): void {
    if (this.#watchers.has(dir)) return;
    let watcher: FSWatcher;
    try {
      watcher = watch(dir, (_type, name) => {
        if (!name) return;
        const file = path.join(dir, String(name));
        if (this.#isFolder(file)) this.#add(file);
        this.#onChange(file);
      });
    } catch {
      return;
    }
    watcher.on('error', () => this.#remove(dir));
    this.#watchers.set(dir, watcher);
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory() && !entry.name.startsWith('.') && !IGNORED_FOLDERS.has(entry.name)) this.#add(path.join(dir, entry.name));
    }
  }

  #isFolder(file: string): boolean {
    const name = path.basename(file);
    if (name.startsWith('.') || IGNORED_FOLDERS.has(name)) return false;
    try {
      return statSync(file).isDirectory();
    } catch {
      return false;
    }
  }

  #remove(dir: string): void {
    this.#watchers.get(dir)?.close();
    this.#watchers.delete(dir);
  }

  close(): void {
    for (const watcher of this.#watchers.values()) watcher.close();
    this.#watchers.clear();
  }
}
