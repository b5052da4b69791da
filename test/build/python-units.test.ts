/**
 * The pure pieces of the Python reader: docstring sections (NumPy and Google, side by side
 * with other sections), which plugin files a bundle carries, and the interpreter choice.
 */
import { describe, expect, it } from 'vitest';
import { isBundledPath } from '../../build/python/python-bundle-files.ts';
import { resolvePython } from '../../build/python/python-interpreter.ts';
import { readDocstring } from '../../build/python/read-docstring.ts';

describe('readDocstring', () => {
  it('takes the first paragraph and NumPy parameter texts, stopping at the next section', () => {
    const doc = readDocstring(
      'Make a\nring.\n\nMore.\n\nParameters\n----------\nradius : float\n    The radius.\n\n    Still the radius.\nx, y : float, optional\n    A ' +
      'point.\n\nReturns\n-------\nMeshResult\n    Not a parameter.',
    );
    expect(doc.summary).toBe('Make a ring.');
    expect([...doc.params]).toEqual([
      ['radius', 'The radius. Still the radius.'],
      ['x', 'A point.'],
      ['y', 'A point.'],
    ]);
  });

  it('reads a Google Args: section with types and continuation lines, up to the next header', () => {
    const doc = readDocstring(
      'Sphere.\n\nArgs:\n    radius (float): The radius,\n        in metres.\n    rings: Rings.\n\nReturns:\n    mesh: not a parameter.',
    );
    expect(doc.summary).toBe('Sphere.');
    expect(doc.params.get('radius')).toBe('The radius, in metres.');
    expect(doc.params.get('rings')).toBe('Rings.');
    expect(doc.params.has('mesh')).toBe(false);
  });

  it('has no summary when the docstring opens with a section, and nothing for null', () => {
    expect(readDocstring('Args:\n    size: The size.').summary).toBeUndefined();
    expect(readDocstring('Args:\n    size: The size.').params.get('size')).toBe('The size.');
    expect(readDocstring(null)).toEqual({ summary: undefined, params: new Map() });
  });

  it('keeps a summary line that merely ends with a colon', () => {
    expect(readDocstring('Builds the following:\n\n- a ring').summary).toBe('Builds the following:');
  });
});

describe('Python bundle files', () => {
  it('carries sources and data, not caches, tests, hidden files or a manifest of its own', () => {
    for (const kept of ['plugin.py', 'grid.py', 'data/levels.csv', 'thumbnails/ring.png', 'models/weights.npy', 'testing_utils.py'])
      expect(isBundledPath(kept), kept).toBe(true);
    for (const left of [
      '__pycache__/plugin.cpython-311.pyc',
      'x.pyc',
      'tests/test_a.py',
      'test/data.csv',
      'test_grid.py',
      'grid_test.py',
      'conftest.py',
      '.env',
      'data/.cache/x',
      'node_modules/a/b.js',
      'manifest.json',
    ])
      expect(isBundledPath(left), left).toBe(false);
  });
});

describe('resolvePython', () => {
  it('prefers --python, then VITRINE_PYTHON, then python3', () => {
    expect(resolvePython('/opt/py', { VITRINE_PYTHON: '/usr/bin/python3' })).toBe('/opt/py');
    expect(resolvePython(undefined, { VITRINE_PYTHON: '/usr/bin/python3' })).toBe('/usr/bin/python3');
    expect(resolvePython(undefined, { VITRINE_PYTHON: '' })).toBe('python3');
    expect(resolvePython(undefined, {})).toBe('python3');
  });
});
