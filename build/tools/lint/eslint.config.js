// @ts-check
/**
 * @module eslint.config
 * The lint gate of `npm test` (run with --max-warnings=0): typescript-eslint's recommended
 * rules, type-only imports enforced (verbatimModuleSyntax needs them marked), no unused code,
 * no line over 160 characters, no file in core/, viewer/ or build/ over 300
 * lines, nor in test/ over 350, and no function in the viewer over 120 lines.
 */
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['**/node_modules/**', 'build/out/**', 'build/dist/**', 'test/fixtures/build/**', 'test/fixtures/schema/**'] },
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts', '**/*.mts', '**/*.mjs', '**/*.js'],
    rules: {
      '@typescript-eslint/consistent-type-imports': ['error', { prefer: 'type-imports', fixStyle: 'inline-type-imports', disallowTypeAnnotations: false }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/no-explicit-any': 'error',
      // Lines of at most 160 characters, whatever they hold: code, comments, strings, URLs and
      // regular expressions alike. A long line is read by scrolling sideways in every review
      // and diff; code and comments wrap freely, a long message or data string splits into
      // parts joined with `+` (its words stay whole), and no exemption hides a long code line
      // that merely holds a string or a URL.
      'max-len': ['error', { code: 160, tabWidth: 2 }],
    },
  },
  // Small modules: a host file past 300 lines holds more than one concept; split it.
  { files: ['core/**/*.ts'], rules: { 'max-lines': ['error', { max: 300 }] } },
  // The viewer (a package of its own): small files, functions a reader can hold, and lines
  // short enough that no file reaches its cap by pressing lines together.
  {
    files: ['viewer/**/*.ts'],
    rules: {
      'max-lines': ['error', { max: 300 }],
      'max-lines-per-function': ['error', { max: 120, skipBlankLines: true, skipComments: true }],
      'max-len': ['error', { code: 140, tabWidth: 2 }],
    },
  },
  // The build tools split the same way.
  { files: ['build/**/*.{ts,mts,mjs,js}'], rules: { 'max-lines': ['error', { max: 300 }] } },
  // A test file may run a little longer (a suite's setup and its cases read best in one file);
  // past this it holds more than one topic: split it by topic, keeping every case.
  { files: ['test/**/*.{ts,mts,mjs,js}'], rules: { 'max-lines': ['error', { max: 350 }] } },
);
