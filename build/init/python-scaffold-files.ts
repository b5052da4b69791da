/**
 * @module python-scaffold-files
 * The files `vitrine init --python` writes: a Python plugin project with one plugin (one
 * function using only the standard library, and a declared specimen), a unittest of it with
 * the `vitrine.testing` helper the package's Python module ships, and a README with the
 * commands. npm only fetches vitrine (the build, the host and the Python module); `npm test`
 * builds the plugin (its schema errors fail the test) and runs the Python tests with the
 * module on PYTHONPATH.
 */
import { allowScriptsOf, SPECIMENS_README, type ScaffoldInput } from './scaffold-files.ts';

export type PythonScaffoldInput = Pick<ScaffoldInput, 'packageName' | 'plugin' | 'vitrineSpec' | 'allowScripts'>;

/** The test module's name: unittest imports it, so it must be an identifier. */
function testModule(plugin: string): string {
  return `test_${plugin.replace(/[^A-Za-z0-9_]/g, '_')}`;
}

function packageJson(input: PythonScaffoldInput): string {
  const python = '"${VITRINE_PYTHON:-python3}"';
  const pkg = {
    name: input.packageName,
    version: '0.1.0',
    private: true,
    scripts: {
      build: 'vitrine build',
      dev: 'vitrine dev',
      start: 'vitrine build && vitrine serve',
      test: `vitrine build && PYTHONPATH="$(vitrine python-path)" ${python} -m unittest discover -s test -v`,
    },
    dependencies: { vitrine: input.vitrineSpec },
    ...allowScriptsOf(input.allowScripts),
  };
  return `${JSON.stringify(pkg, null, 2)}\n`;
}

const PLUGIN = `"""A vitrine plugin: typed functions the host serves as specimens."""
from __future__ import annotations

import math
from typing import Annotated

from vitrine import MeshResult, ProgressReporter, Range


def ripple(
    amplitude: Annotated[float, Range(0, 1)] = 0.15,
    wavelength: Annotated[float, Range(0.05, 2)] = 0.5,
    segments: Annotated[int, Range(2, 256)] = 64,
    progress: ProgressReporter | None = None,
) -> MeshResult:
    """A square sheet rippling out from its centre, as a triangle mesh.

    Parameters
    ----------
    amplitude
        Height of the ripples.
    wavelength
        Distance between two crests.
    segments
        Grid cells along each side.
    """
    if progress is not None:
        progress.report("building the grid")
    side = segments + 1
    vertices = []
    for row in range(side):
        for col in range(side):
            x = col / segments - 0.5
            z = row / segments - 0.5
            r = math.hypot(x, z)
            height = amplitude * math.cos(2 * math.pi * r / wavelength) * math.exp(-3 * r)
            vertices += [x * 2, height, z * 2]
    if progress is not None:
        progress.report("joining triangles")
    indices = []
    for row in range(segments):
        for col in range(segments):
            a = row * side + col
            indices += [a, a + side, a + 1, a + 1, a + side, a + side + 1]
    return MeshResult(vertices=vertices, indices=indices)


# What the host lists in its catalog. With no thumbnail, viewers show a placeholder.
specimens = [
    {
        "id": "ripple",
        "function": "ripple",
        "display_name": "Ripple",
        "description": "A sheet rippling out from its centre.",
        "tags": ["mesh", "example"],
    },
]
`;

function testFile(plugin: string): string {
  return `"""The plugin's function run as the host runs it: parameters checked against its schema."""
import unittest
from pathlib import Path

from vitrine.testing import run

PLUGIN = Path(__file__).resolve().parent.parent / "plugins" / "${plugin}" / "plugin.py"


class RippleTest(unittest.TestCase):
    def test_the_defaults_make_a_mesh(self):
        mesh = run(PLUGIN, "ripple")
        self.assertEqual(len(mesh.vertices), 65 * 65 * 3)
        self.assertEqual(len(mesh.indices), 64 * 64 * 6)

    def test_a_parameter_changes_the_mesh(self):
        mesh = run(PLUGIN, "ripple", segments=8)
        self.assertEqual(len(mesh.indices), 8 * 8 * 6)


if __name__ == "__main__":
    unittest.main()
`;
}

function readme(input: PythonScaffoldInput): string {
  return `# ${input.packageName}

A vitrine plugin project in Python (once installed, vitrine's guides are beside it:
[node_modules/vitrine/plugins/README.md](node_modules/vitrine/plugins/README.md) and
[node_modules/vitrine/README.md](node_modules/vitrine/README.md)). npm installs
vitrine (the build, the host, and the \`vitrine\` Python module your plugin imports); the
plugin needs nothing installed but what it imports itself.

\`\`\`sh
npm install        # installs vitrine
npm test           # builds the plugins, then runs test/ with python3 -m unittest
npx vitrine dev    # builds, serves on http://127.0.0.1:8000 and rebuilds each plugin you save
\`\`\`

\`npx vitrine build\` reads \`plugins/*/plugin.py\` without running it and writes the bundles
into \`build/out/\` (\`--check\` tells whether they are current); \`npx vitrine serve\` serves
them. Each folder of \`plugins/\` with a \`plugin.py\` is a plugin: its module-level functions
annotated \`-> MeshResult\`, \`VolumeResult\`, \`PointCloudResult\` or \`ImageResult\` are
registered, their annotations become a JSON Schema (\`float\`, \`int\`, \`str\`, \`bool\`,
\`Literal[...]\`, \`Annotated[float, Range(lo, hi)]\`, \`tuple[...]\`, \`list[...]\`, \`Color\`,
the inputs, each optionally \`| None = None\`), and \`specimens = [...]\` lists what the catalog
shows. Sibling modules and data files in the plugin's folder travel with it.

The tests run Python with the \`vitrine\` module on its path:

\`\`\`sh
PYTHONPATH="$(npx vitrine python-path)" python3 -m unittest discover -s test -v
\`\`\`

\`npx vitrine python-path\` prints the folder that holds the module, for editors, notebooks and
scripts too. \`VITRINE_PYTHON\` names another interpreter (Python 3.9 or later) for the build,
the host and \`npm test\`. Static specimens (files on disk: meshes, volumes, images) go in
\`specimens/\`, one folder each with a \`specimen.json\`.
`;
}

const GITIGNORE = 'node_modules/\nbuild/out/\n__pycache__/\n';

/** Every file of the project, by its path relative to the project folder. */
export function pythonScaffoldFiles(input: PythonScaffoldInput): Map<string, string> {
  return new Map([
    ['package.json', packageJson(input)],
    [`plugins/${input.plugin}/plugin.py`, PLUGIN],
    [`test/${testModule(input.plugin)}.py`, testFile(input.plugin)],
    ['README.md', readme(input)],
    ['.gitignore', GITIGNORE],
    ['specimens/README.md', SPECIMENS_README],
  ]);
}
