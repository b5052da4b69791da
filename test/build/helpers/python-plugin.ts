/**
 * @module python-plugin
 * A small valid Python plugin for CLI tests: a function with a reporter, a sibling module and
 * a data file, a thumbnail, and the files a bundle leaves out (bytecode, tests, hidden files).
 */
import { FAKE_PNG } from './run-cli.ts';

export function samplePythonPlugin(radiusDefault = '1.5'): Record<string, string | Uint8Array> {
  return {
    'waves/plugin.py': `"""Waves, read by the build without being run."""
from typing import Annotated, Literal

from vitrine import MeshResult, ProgressReporter, Range

from .grid import grid

STORY = "A ring " + "of triangles."


def wave(
    radius: Annotated[float, Range(0.1, 10)] = ${radiusDefault},
    mode: Literal["fast", "fine"] = "fast",
    segments: int = 32,
    progress: ProgressReporter | None = None,
) -> MeshResult:
    """A flat ring of points joined into triangles.

    Parameters
    ----------
    radius : float
        Ring radius.
    """
    return MeshResult(vertices=grid(radius, segments), indices=[])


def circumference(radius: float) -> float:
    return 6.283 * radius


specimens = [
    {"id": "wave-ring", "function": "wave", "display_name": "Ring", "tags": ["mesh"], "thumbnail": "./thumbnails/ring.png", "story": STORY},
    {"id": "wave-ring.inline", "function": "wave", "display_name": "Inline ring", "thumbnail": "data:image/png;base64,iVBORw0KGgo="},
]
`,
    'waves/grid.py': 'def grid(radius, segments):\n    return [radius] * (segments * 3)\n',
    'waves/data/levels.csv': 'level\n0.5\n',
    'waves/thumbnails/ring.png': FAKE_PNG,
    'waves/__pycache__/plugin.cpython-311.pyc': 'bytecode',
    'waves/tests/test_ring.py': 'import unittest\n',
    'waves/test_grid.py': 'import unittest\n',
    'waves/.env': 'SECRET=1\n',
  };
}
