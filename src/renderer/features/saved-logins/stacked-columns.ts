import type { Column } from '../../components/DataTable';

/**
 * The columns with each cell naming its column (`data-label`), so saved-logins.css can show a table's rows
 * as stacked cards where its card is narrow (down to 320 px) instead of scrolling sideways.
 */
export function stacked<Row>(columns: readonly Column<Row>[]): Column<Row>[] {
  return columns.map((column) => {
    const label = column.id ?? (typeof column.header === 'string' ? column.header : undefined);
    return {
      ...column,
      cellAttributes: (row: Row) => ({ ...column.cellAttributes?.(row), 'data-label': label }),
    };
  });
}
