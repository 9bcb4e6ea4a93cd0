// A CSV table as the rows of a batch generate request: columns are variable keys; a media cell that names a
// file dropped along with the CSV becomes its storage key, any other value (a stored key, a URL) is sent as is.
import type { Template } from '../../../shared/ipc-contract.js';
import type { CsvTable } from '../../lib/csv';
import { MAX_BATCH_ROWS } from '../../../shared/video.schema.js';
import { takesText } from './generate-body';

export interface BatchRow {
  variables: Record<string, string>;
  character_variables?: Record<string, string>;
}

export function batchRows(
  template: Template,
  table: CsvTable,
  uploaded: Record<string, string>,
): { rows: BatchRow[]; problems: string[] } {
  const problems: string[] = [];
  const byKey = new Map(template.input_variables.map((v) => [v.key, v]));
  const unknown = table.columns.filter((c) => c && !byKey.has(c) && !c.startsWith('character:'));
  if (unknown.length) problems.push(`Columns that are not variables of this template: ${unknown.join(', ')}`);
  if (table.rows.length > MAX_BATCH_ROWS)
    problems.push(`At most ${MAX_BATCH_ROWS} rows (the CSV has ${table.rows.length})`);
  const rows = table.rows.map((cells, i) => {
    const variables: Record<string, string> = {};
    const characters: Record<string, string> = {};
    for (const [column, value] of Object.entries(cells)) {
      if (!value) continue;
      if (column.startsWith('character:')) {
        characters[column.slice('character:'.length)] = value;
        continue;
      }
      const v = byKey.get(column);
      if (!v) continue;
      variables[column] = takesText(v.type) ? value : (uploaded[value] ?? value);
      if (!takesText(v.type) && !uploaded[value] && /\.(png|jpe?g|webp|gif|mp4|mov|webm|mp3|wav|m4a|ogg)$/i.test(value))
        problems.push(`Row ${i + 1}: ${column} names ${value}; drop that file along with the CSV`);
    }
    for (const v of template.input_variables) {
      if (v.required && !v.default_value && !variables[v.key] && !characters[v.key])
        problems.push(`Row ${i + 1}: ${v.label} (${v.key}) is required`);
    }
    return Object.keys(characters).length ? { variables, character_variables: characters } : { variables };
  });
  return { rows, problems };
}
