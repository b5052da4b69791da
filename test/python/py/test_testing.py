"""vitrine.testing: a plugin function run as the host runs it, parameters checked first."""
import os
import tempfile
import textwrap
import unittest
from typing import Any, Dict, List, Tuple

from vitrine.testing import ParameterError, ResultShapeError, run, run_with_progress

PLUGIN = textwrap.dedent('''
    from __future__ import annotations
    from typing import Annotated, Literal, Optional
    from vitrine import Color, Items, MeshResult, ProgressReporter, Range, VolumeResult
    from helper import triangle

    def shape(size: Annotated[float, Range(0.5, 4)] = 1.0, mode: Literal["a", "b"] = "a", tint: Color = "#ff0000",
              axis: tuple[float, float, float] = (0, 0, 1), tags: Annotated[list[str], Items(max=2)] = [],
              count: int = 3, label: Optional[str] = None, progress: ProgressReporter | None = None) -> MeshResult:
        if progress is not None:
            progress.report("half", 0.5)
        return triangle(size)

    async def later() -> MeshResult:
        return triangle(1)

    def broken() -> VolumeResult:
        return [1, 2, 3]
''')
HELPER = "def triangle(s):\n    return ([0, 0, 0, s, 0, 0, 0, s, 0], [0, 1, 2])\n"


class RunTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp()
        with open(os.path.join(self.dir, "plugin.py"), "w") as f:
            f.write(PLUGIN)
        with open(os.path.join(self.dir, "helper.py"), "w") as f:
            f.write(HELPER)
        self.plugin = os.path.join(self.dir, "plugin.py")

    def test_runs_with_defaults_and_collects_progress(self):
        mesh, messages = run_with_progress(self.plugin, "shape", size=2)
        self.assertEqual(list(mesh.vertices)[3], 2.0)
        self.assertEqual(len(mesh.indices), 3)
        self.assertEqual(messages, [("half", 0.5)])
        self.assertEqual(len(run(self.dir, "later").vertices), 9)

    def test_refuses_what_the_host_refuses(self):
        cases: List[Tuple[Dict[str, Any], str]] = [
            ({"size": 9}, "size must be at most 4"),
            ({"size": True}, "size must be a number"),
            ({"count": 1.5}, "count must be an integer"),
            ({"mode": "c"}, "mode must be one of"),
            ({"tint": "red"}, "tint must be a colour"),
            ({"axis": [0, 1]}, "axis must have 3 items"),
            ({"tags": ["a", "b", "c"]}, "tags must have at most 2 items"),
            ({"colour": "#000000"}, "colour is not a parameter"),
        ]
        for params, message in cases:
            with self.assertRaises(ParameterError) as caught:
                run(self.plugin, "shape", **params)
            self.assertIn(message, str(caught.exception))
        run(self.plugin, "shape", label=None, count=2)

    def test_an_invalid_result_is_refused(self):
        with self.assertRaises(ResultShapeError):
            run(self.plugin, "broken")


if __name__ == "__main__":
    unittest.main()
