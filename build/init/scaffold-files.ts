/**
 * @module scaffold-files
 * The files `vitrine init` writes: a plugin project with one plugin (one function and a
 * declared specimen without a thumbnail, so viewers show the placeholder), a test of it with
 * `vitrine/testing` on Node's own test runner, and a README with the commands.
 */

export interface ScaffoldInput {
  /** The npm package name of the project. */
  packageName: string;
  /** The plugin folder name. */
  plugin: string;
  /** The dependency spec of vitrine (a semver range, a tarball path, ...). */
  vitrineSpec: string;
  /** Versions of the dev tools the scaffold's tests run with. */
  tsxSpec: string;
  typesNodeSpec: string;
  typescriptSpec: string;
  /** The packages whose install scripts npm may run (vitrine's own list), so installing warns of none. */
  allowScripts: Record<string, boolean>;
}

/**
 * `allowScripts` for a project's package.json: npm (11.16 and later) warns of every install
 * script a project has not listed, and vitrine's dependencies have some (native builds, a
 * platform binary). Nothing when the list is empty.
 */
export function allowScriptsOf(allowed: Record<string, boolean>): { allowScripts?: Record<string, boolean> } {
  return Object.keys(allowed).length > 0 ? { allowScripts: { ...allowed } } : {};
}

function packageJson(input: ScaffoldInput): string {
  const pkg = {
    name: input.packageName,
    version: '0.1.0',
    private: true,
    type: 'module',
    scripts: {
      build: 'vitrine build',
      dev: 'vitrine dev',
      start: 'vitrine build && vitrine serve',
      typecheck: 'tsc --noEmit',
      test: 'npm run typecheck && node --import tsx --test test/*.test.ts',
    },
    dependencies: { vitrine: input.vitrineSpec },
    devDependencies: { '@types/node': input.typesNodeSpec, tsx: input.tsxSpec, typescript: input.typescriptSpec },
    ...allowScriptsOf(input.allowScripts),
  };
  return `${JSON.stringify(pkg, null, 2)}\n`;
}

const TSCONFIG = `{
  "compilerOptions": {
    "target": "ES2022",
    "lib": ["ES2023", "DOM"],
    "module": "NodeNext",
    "moduleResolution": "NodeNext",
    "strict": true,
    "allowImportingTsExtensions": true,
    "verbatimModuleSyntax": true,
    "noEmit": true,
    "skipLibCheck": true,
    "types": ["node"]
  },
  "include": ["plugins", "test"]
}
`;

const PLUGIN = `import type { Integer, MeshResult, ProgressReporter, SpecimenDeclaration } from 'vitrine';

/**
 * A square sheet rippling out from its centre, as a triangle mesh.
 * @param amplitude Height of the ripples.
 * @param wavelength Distance between two crests.
 * @param segments Grid cells along each side.
 * @range amplitude 0 1
 * @range wavelength 0.05 2
 * @range segments 2 256
 */
export function ripple(amplitude = 0.15, wavelength = 0.5, segments: Integer = 64, progress?: ProgressReporter): MeshResult {
  progress?.report('building the grid', 0);
  const side = segments + 1;
  const vertices = new Float32Array(side * side * 3);
  for (let row = 0; row < side; row++) {
    for (let col = 0; col < side; col++) {
      const x = col / segments - 0.5;
      const z = row / segments - 0.5;
      const r = Math.hypot(x, z);
      const at = (row * side + col) * 3;
      vertices[at] = x * 2;
      vertices[at + 1] = amplitude * Math.cos((2 * Math.PI * r) / wavelength) * Math.exp(-3 * r);
      vertices[at + 2] = z * 2;
    }
  }
  progress?.report('joining triangles', 0.5);
  const indices = new Uint32Array(segments * segments * 6);
  let next = 0;
  for (let row = 0; row < segments; row++) {
    for (let col = 0; col < segments; col++) {
      const a = row * side + col;
      indices.set([a, a + side, a + 1, a + 1, a + side, a + side + 1], next);
      next += 6;
    }
  }
  return { vertices, indices };
}

/** What the host lists in its catalog. With no thumbnail, viewers show a placeholder. */
export const specimens: SpecimenDeclaration[] = [
  {
    id: 'ripple',
    function: 'ripple',
    display_name: 'Ripple',
    description: 'A sheet rippling out from its centre.',
    tags: ['mesh', 'example'],
  },
];
`;

function testFile(plugin: string): string {
  return `import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadPlugin } from 'vitrine/testing';

// Builds the plugin as \`vitrine build\` does and calls it as the host does.
const plugin = await loadPlugin(new URL('../plugins/${plugin}', import.meta.url));

test('ripple makes a mesh with the schema defaults', async () => {
  const run = await plugin.call('ripple');
  assert.deepEqual(run.values, { amplitude: 0.15, wavelength: 0.5, segments: 64 });
  assert.equal(run.result.type, 'mesh');
  if (run.result.type !== 'mesh') return;
  assert.equal(run.result.vertices.length, 65 * 65 * 3);
  assert.equal(run.result.indices.length, 64 * 64 * 6);
  assert.deepEqual(run.progress.map((message) => message.text), ['building the grid', 'joining triangles']);
});

test('parameters outside the schema are refused as the host refuses them', async () => {
  await assert.rejects(plugin.call('ripple', { segments: 1 }), { code: 'SPC_ERR_PARAM_INVALID' });
  await assert.rejects(plugin.call('ripple', { colour: 'red' }), { code: 'SPC_ERR_PARAM_UNKNOWN' });
});

test('the ripple specimen is declared', () => {
  assert.deepEqual(plugin.specimens.map((specimen) => specimen.id), ['ripple']);
});
`;
}

function readme(input: ScaffoldInput): string {
  return `# ${input.packageName}

A vitrine plugin project. Once installed, vitrine's guides are beside it: how to write a plugin in
[node_modules/vitrine/plugins/README.md](node_modules/vitrine/plugins/README.md), the build in
[node_modules/vitrine/build/README.md](node_modules/vitrine/build/README.md), the host in
[node_modules/vitrine/README.md](node_modules/vitrine/README.md).

\`\`\`sh
npm install        # installs vitrine and the test tools
npm test           # type-checks, then runs test/*.test.ts: the plugin built and called as the host calls it
npm run typecheck  # tsc --noEmit over plugins/ and test/ (vitrine build type-checks plugins too)
npx vitrine dev    # builds, serves on http://127.0.0.1:8000 and rebuilds each plugin you save
\`\`\`

\`npx vitrine build\` writes the bundles into \`build/out/\` (\`--check\` tells whether they are
current); \`npx vitrine serve\` serves them. Each folder of \`plugins/\` with an \`index.ts\` is a
plugin: its exported functions returning \`MeshResult\`, \`VolumeResult\`, \`PointCloudResult\` or
\`ImageResult\` are registered, their parameters become a JSON Schema, and
\`export const specimens\` lists what the catalog shows. Static specimens (files on disk: meshes,
volumes, images) go in \`specimens/\`, one folder each with a \`specimen.json\`.
`;
}

const GITIGNORE = 'node_modules/\nbuild/out/\n';

/** The specimens folder's README, in TypeScript and Python projects alike. */
export const SPECIMENS_README = `# Static specimens

\`vitrine serve\` lists each folder here that holds a \`specimen.json\` (its id, display name,
type and data file) beside the file it serves: a mesh (.obj, .stl, .glb, .ply), a volume
(.npy), a point cloud or an image. This folder starts empty; plugins need none of it.
`;

/** Every file of the project, by its path relative to the project folder. */
export function scaffoldFiles(input: ScaffoldInput): Map<string, string> {
  return new Map([
    ['package.json', packageJson(input)],
    ['tsconfig.json', TSCONFIG],
    [`plugins/${input.plugin}/index.ts`, PLUGIN],
    [`test/${input.plugin}.test.ts`, testFile(input.plugin)],
    ['README.md', readme(input)],
    ['.gitignore', GITIGNORE],
    ['specimens/README.md', SPECIMENS_README],
  ]);
}
