/**
 * The command's own help and the documents say the same: every command `vitrine help` lists
 * has a row in the Commands table of docs/commands.md, the README and that table tell a newcomer
 * to run `npx vitrine help` (npx answers `--help` itself), and every option `vitrine serve
 * --help` lists is explained in the README or a page of docs/. An option or command added to the command
 * without a word in the documents fails here, naming it. SECURITY.md's table has a row for each
 * option and feature that decides who may do what.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runVitrine } from '../build/helpers/run-cli.ts';
import { REPO } from '../helpers/cli-path.ts';

const readme = readFileSync(join(REPO, 'README.md'), 'utf8');
const commandsDoc = readFileSync(join(REPO, 'docs', 'commands.md'), 'utf8');
const docs = readdirSync(join(REPO, 'docs'))
  .filter((name) => name.endsWith('.md'))
  .map((name) => ({ name: `docs/${name}`, text: readFileSync(join(REPO, 'docs', name), 'utf8') }));

/** The table under `## Commands` of docs/commands.md: its rows' first cells. */
function commandsTable(): string[] {
  const section = commandsDoc.split(/^## Commands$/m)[1]?.split(/^## /m)[0] ?? '';
  return section
    .split('\n')
    .filter((line) => line.startsWith('| `npx vitrine'))
    .map((line) => line.split('|')[1]!.trim());
}

/** Whether `text` names `option` itself (`--cache-ttl`, not a longer option beginning so). */
const names = (text: string, option: string) => new RegExp(`${option}(?![\\w-])`).test(text);

describe('the help and the documents', () => {
  it('every command of `vitrine help` has a row in the Commands table of docs/commands.md', async () => {
    const help = await runVitrine(['help'], REPO);
    expect(help.code).toBe(0);
    const listed = help.stdout
      .split(/^commands:$/m)[1]!
      .split('\n')
      .map((line) => /^ {2}([a-z][\w-]*)\b/.exec(line)?.[1])
      .filter((command): command is string => command !== undefined);
    expect(listed).toContain('serve');
    const rows = commandsTable();
    const missing = listed.filter((command) => !rows.some((row) => row.startsWith(`\`npx vitrine ${command}`)));
    expect(missing, `commands of vitrine help without a row in the Commands table of docs/commands.md`).toEqual([]);
    expect(rows.some((row) => row.startsWith('`npx vitrine help`')), 'docs/commands.md shows npx vitrine help').toBe(true);
    expect(readme, 'the README shows npx vitrine help').toContain('`npx vitrine help`');
  });

  it('every option of `vitrine serve --help` is explained in the README or docs/', async () => {
    const help = await runVitrine(['serve', '--help'], REPO);
    expect(help.code).toBe(0);
    const options = [...help.stdout.matchAll(/^ {2}(--[a-z][\w-]*)/gm)].map((m) => m[1]!);
    expect(options.length).toBeGreaterThan(40);
    const missing = options.filter((option) => !names(readme, option) && !docs.some((doc) => names(doc.text, option)));
    expect(missing, 'options of vitrine serve --help that neither the README nor docs/ explain').toEqual([]);
  });

  it("SECURITY.md's table has a row for each option and feature that decides who may do what", async () => {
    const security = readFileSync(join(REPO, 'SECURITY.md'), 'utf8');
    const rows = security.split('\n').filter((line) => line.startsWith('| '));
    const deciding = ['--admin-token', '--token', '--cors-origin', '--allowed-hosts', '--trust-proxy', '--user-header', '--trust-keys', '--signatures'];
    const help = (await runVitrine(['serve', '--help'], REPO)).stdout;
    for (const option of deciding) expect(names(help, option), `${option} is an option of vitrine serve`).toBe(true);
    const features = [...deciding, 'vitrine users', '/access', '/api/tickets'];
    const missing = features.filter((feature) => !rows.some((row) => names(row.split('|')[1]!, feature)));
    expect(missing, 'options and features without a row of their own in SECURITY.md').toEqual([]);
  });
});
