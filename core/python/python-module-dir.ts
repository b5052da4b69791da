/**
 * @module python-module-dir
 * Where the `vitrine` Python package lives: `core/python/` of the package root, in a checkout
 * and once installed (it ships as source; nothing compiles it). Plugin processes get it first
 * on their PYTHONPATH; `vitrine python-path` prints it for editors, notebooks and scripts.
 */
import path from 'node:path';
import { PACKAGE_ROOT } from '../loading/package-layout.ts';

export const PYTHON_MODULE_DIR = path.join(PACKAGE_ROOT, 'core', 'python');
