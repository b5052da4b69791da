/**
 * @module read-docstring
 * What a Python function's docstring says: its first paragraph (the schema `description`)
 * and each parameter's text from a NumPy-style `Parameters` section (a header underlined with
 * dashes; `name : type` lines, the text indented below) or a Google-style `Args:` section
 * (`name (type): text` lines, continuations indented further).
 */
import { firstParagraph, oneLine, type FunctionDoc } from '../schema/read-doc.ts';

/** What a docstring says, as a doc comment says it: the summary and each parameter's text. */
export type PythonDoc = Pick<FunctionDoc, 'summary' | 'params'>;

/** Section headers of the Google style (`Args:`), as the napoleon Sphinx extension reads them. */
const GOOGLE_SECTIONS = [
  'Args', 'Arguments', 'Attributes', 'Examples?', 'Keyword Args', 'Keyword Arguments', 'Kwargs', 'Methods', 'Notes?', 'Other Parameters',
  'Parameters', 'Params', 'Returns?', 'Raises?', 'References', 'See Also', 'Todo', 'Warnings?', 'Warns', 'Yields?',
];
const GOOGLE_HEADER = new RegExp(`^(${GOOGLE_SECTIONS.join('|')}):$`);
const GOOGLE_PARAMETERS = /^(Args|Arguments|Parameters|Params|Keyword Args|Keyword Arguments|Kwargs|Other Parameters):$/;
const NUMPY_PARAMETERS = /^(Parameters|Other Parameters|Keyword Arguments|Params)$/;
const UNDERLINE = /^\s*-{3,}\s*$/;

const indentOf = (line: string): number => line.length - line.trimStart().length;
const blank = (line: string): boolean => line.trim() === '';

type Section = { kind: 'numpy' | 'google'; header: number; parameters: boolean };

/** The section starting at line `index`, if one does. */
function sectionAt(lines: string[], index: number): Section | undefined {
  const text = lines[index]!.trim();
  if (text === '') return undefined;
  if (UNDERLINE.test(lines[index + 1] ?? '') && !UNDERLINE.test(lines[index]!))
    return { kind: 'numpy', header: index, parameters: NUMPY_PARAMETERS.test(text) };
  if (GOOGLE_HEADER.test(text)) return { kind: 'google', header: index, parameters: GOOGLE_PARAMETERS.test(text) };
  return undefined;
}

/** `text` of entries starting at lines of indentation `base`; continuation lines are deeper. */
function readEntries(
  lines: string[],
  from: number,
  to: number,
  parseHeader: (line: string) => { names: string[]; text: string } | undefined,
  into: Map<string, string>,
): void {
  const first = lines.slice(from, to).find((line) => !blank(line));
  if (first === undefined) return;
  const base = indentOf(first);
  let current: { names: string[]; parts: string[] } | undefined;
  const flush = (): void => {
    if (!current) return;
    const text = oneLine(current.parts.join('\n'));
    if (text !== '') for (const name of current.names) if (!into.has(name)) into.set(name, text);
  };
  for (let index = from; index < to; index++) {
    const line = lines[index]!;
    if (blank(line)) continue;
    if (indentOf(line) <= base) {
      flush();
      const header = parseHeader(line.trim());
      current = header ? { names: header.names, parts: [header.text] } : undefined;
    } else current?.parts.push(line);
  }
  flush();
}

/** `radius : float, optional` or `x, y : float` or just `radius`. */
function numpyHeader(line: string): { names: string[]; text: string } | undefined {
  const names = (line.split(' : ')[0] ?? line).replace(/:$/, '').split(',').map((name) => name.trim().replace(/^\*+/, ''));
  return names.every((name) => /^\w+$/.test(name)) ? { names, text: '' } : undefined;
}

/** `radius (float): text` or `radius: text`. */
function googleHeader(line: string): { names: string[]; text: string } | undefined {
  const match = /^\**(\w+)\s*(?:\([^)]*\))?\s*:(.*)$/.exec(line);
  return match ? { names: [match[1]!], text: match[2]!.trim() } : undefined;
}

export function readDocstring(docstring: string | null): PythonDoc {
  const doc: PythonDoc = { summary: undefined, params: new Map() };
  if (docstring === null) return doc;
  const lines = docstring.split(/\r?\n/);
  const sections: Section[] = [];
  for (let index = 0; index < lines.length; index++) {
    const section = sectionAt(lines, index);
    if (section) sections.push(section);
  }
  doc.summary = firstParagraph(lines.slice(0, sections[0]?.header ?? lines.length).join('\n'));
  sections.forEach((section, order) => {
    if (!section.parameters) return;
    const end = sections[order + 1]?.header ?? lines.length;
    if (section.kind === 'numpy') return readEntries(lines, section.header + 2, end, numpyHeader, doc.params);
    // A Google section ends at the first line indented no deeper than its header.
    const headerIndent = indentOf(lines[section.header]!);
    let stop = section.header + 1;
    while (stop < end && (blank(lines[stop]!) || indentOf(lines[stop]!) > headerIndent)) stop++;
    readEntries(lines, section.header + 1, stop, googleHeader, doc.params);
  });
  return doc;
}
