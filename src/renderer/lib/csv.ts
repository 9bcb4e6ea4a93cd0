// CSV as people export it from a spreadsheet (RFC 4180): commas or semicolons, "quoted" cells with "" for a
// quote and line breaks inside, CRLF or LF, a BOM. The first row names the columns.

export interface CsvTable {
  columns: string[];
  rows: Record<string, string>[];
}

/** The cells of each line. */
export function parseCsvCells(text: string): string[][] {
  const src = text.replace(/^\uFEFF/, '');
  const firstLine = src.split(/\r?\n/, 1)[0] ?? '';
  const sep = (firstLine.match(/;/g)?.length ?? 0) > (firstLine.match(/,/g)?.length ?? 0) ? ';' : ',';
  const lines: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < src.length; i++) {
    const c = src[i];
    if (quoted) {
      if (c === '"' && src[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"' && cell === '') quoted = true;
    else if (c === sep) {
      row.push(cell);
      cell = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && src[i + 1] === '\n') i++;
      row.push(cell);
      lines.push(row);
      row = [];
      cell = '';
    } else cell += c;
  }
  if (cell !== '' || row.length) {
    row.push(cell);
    lines.push(row);
  }
  return lines.filter((l) => l.some((c) => c.trim() !== ''));
}

/** The table: columns from the first row (trimmed), one record per further row. */
export function parseCsv(text: string): CsvTable {
  const [head = [], ...body] = parseCsvCells(text);
  const columns = head.map((c) => c.trim());
  return {
    columns,
    rows: body.map((cells) => Object.fromEntries(columns.map((c, i) => [c, (cells[i] ?? '').trim()]))),
  };
}
