/**
 * @module csv-records
 * Comma-separated values as RFC 4180 writes them, both ways: records split on CRLF or LF,
 * fields on commas, a field in double quotes may hold commas, line breaks and doubled quotes.
 * Each record remembers the line it starts on, so an importer can say where a bad value is.
 * A byte order mark at the start is skipped; blank lines are no records. A quote left open or
 * text after a closing quote is an error naming its line.
 */

export interface CsvRecord {
  /** 1-based line the record starts on. */
  line: number;
  fields: string[];
}

export class CsvSyntaxError extends Error {
  constructor(readonly line: number, message: string) {
    super(message);
  }
}

/** The records of `text`. @throws CsvSyntaxError naming the line. */
export function parseCsvRecords(text: string, each?: (record: CsvRecord) => void): CsvRecord[] {
  const records: CsvRecord[] = [];
  const keep = each ?? ((record: CsvRecord) => records.push(record));
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  let line = 1;
  let fields: string[] = [];
  let start = line;
  const endRecord = (): void => {
    if (!(fields.length === 1 && fields[0] === '')) keep({ line: start, fields });
    fields = [];
  };
  while (i <= text.length) {
    if (fields.length === 0) start = line;
    let value = '';
    if (text[i] === '"') {
      const opened = line;
      i++;
      for (;;) {
        if (i >= text.length) throw new CsvSyntaxError(opened, 'a quoted field is not closed');
        const c = text[i]!;
        if (c === '"') {
          if (text[i + 1] === '"') {
            value += '"';
            i += 2;
            continue;
          }
          i++;
          break;
        }
        if (c === '\n') line++;
        value += c;
        i++;
      }
      const next = text[i];
      if (next !== undefined && next !== ',' && next !== '\n' && next !== '\r')
        throw new CsvSyntaxError(line, `text after a closing quote (${JSON.stringify(value.slice(0, 20))}${next})`);
    } else {
      const from = i;
      while (i < text.length && text[i] !== ',' && text[i] !== '\n' && text[i] !== '\r') i++;
      value = text.slice(from, i);
    }
    fields.push(value);
    const c = text[i];
    if (c === ',') {
      i++;
      continue;
    }
    if (c === '\r') i++;
    if (text[i] === '\n') i++;
    endRecord();
    line++;
    if (i >= text.length) break;
  }
  return records;
}

/** One field as CSV writes it: quoted when it holds a comma, a quote, a line break or edge spaces. */
export function csvField(value: string): string {
  return /[",\r\n]|^\s|\s$/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

/** One record, with its line ending. */
export function csvLine(fields: readonly string[]): string {
  return `${fields.map(csvField).join(',')}\r\n`;
}
