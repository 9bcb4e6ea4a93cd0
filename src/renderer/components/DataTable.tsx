import type { ReactNode, TdHTMLAttributes } from 'react';
import { ListFrame, type ListLoad } from './ListFrame';

/** Attributes a row or cell may carry besides its class: titles, test ids, data-* hooks. */
type DataAttributes = { [name: `data-${string}`]: string | undefined };

/** One column of a DataTable: its header and how a row fills its cell. */
export interface Column<Row> {
  /** Names the column for React; the header text when `header` is not a plain string. */
  id?: string;
  header: ReactNode;
  /** Keep the header for screen readers only (icons, previews). */
  hideHeader?: boolean;
  /** On the header and every cell, e.g. `num` (right-aligned figures) or a width class. */
  className?: string;
  /** Added to the cell's class only; a function for classes that depend on the row. */
  cellClassName?: string | ((row: Row) => string);
  cellAttributes?: (row: Row) => Pick<TdHTMLAttributes<HTMLTableCellElement>, 'title'> & DataAttributes;
  cell: (row: Row) => ReactNode;
}

export interface DataTableProps<Row> {
  /** The table's accessible name. */
  label: string;
  rows: readonly Row[];
  columns: readonly Column<Row>[];
  rowKey: (row: Row, index: number) => string;
  /** The data-testid of every body row. */
  rowTestId?: string;
  isSelected?: (row: Row) => boolean;
  rowAttributes?: (row: Row) => DataAttributes;
  /** The buttons of a row, in a last, right-aligned column whose header only screen readers hear. */
  actions?: (row: Row) => ReactNode;
  /** A fetched list: its error, first-load and `empty` states show above the table (see ListFrame). */
  load?: ListLoad;
  /** Shown when there are no rows (for a fetched list: once it has loaded). */
  empty?: ReactNode;
  /** Tighter rows, for detail tables inside a panel. */
  compact?: boolean;
  className?: string;
  /** A table inside a dialog: no header row, no horizontal-scroll wrapper. */
  bare?: boolean;
}

const joinClasses = (...names: (string | false | undefined)[]) => names.filter(Boolean).join(' ') || undefined;

const cellClassOf = <Row,>(column: Column<Row>, row: Row) =>
  joinClasses(
    column.className,
    typeof column.cellClassName === 'function' ? column.cellClassName(row) : column.cellClassName,
  );

const columnKey = <Row,>(column: Column<Row>, index: number) =>
  column.id ?? (typeof column.header === 'string' ? column.header : String(index));

/**
 * The one table every screen lists its rows in: the `table` styles of styles.css, column headers with
 * scope, a row key, selection and row actions, and the loading / empty / error states of a fetched
 * list. Cells get their content from the columns, so screens describe what to show, not the markup.
 */
export function DataTable<Row>(props: DataTableProps<Row>) {
  const { label, rows, columns, rowKey, rowTestId, isSelected, rowAttributes, actions, compact, bare } = props;
  const table = (
    <table className={joinClasses('table', compact && 'table-compact', props.className)} aria-label={label}>
      {bare ? null : (
        <thead>
          <tr>
            {columns.map((column, i) => (
              <th key={columnKey(column, i)} scope="col" className={column.className}>
                {column.hideHeader ? <span className="sr-only">{column.header}</span> : column.header}
              </th>
            ))}
            {actions ? (
              <th scope="col">
                <span className="sr-only">Actions</span>
              </th>
            ) : null}
          </tr>
        </thead>
      )}
      <tbody>
        {rows.map((row, index) => (
          <tr
            key={rowKey(row, index)}
            data-testid={rowTestId}
            className={isSelected?.(row) ? 'row-selected' : undefined}
            {...rowAttributes?.(row)}
          >
            {columns.map((column, i) => (
              <td key={columnKey(column, i)} className={cellClassOf(column, row)} {...column.cellAttributes?.(row)}>
                {column.cell(row)}
              </td>
            ))}
            {actions ? <td className="actions">{actions(row)}</td> : null}
          </tr>
        ))}
      </tbody>
    </table>
  );
  return (
    <ListFrame rows={rows} load={props.load} empty={props.empty}>
      {/* The box scrolls sideways in a narrow window (the page does not): a named box that takes focus, so a
          keyboard can scroll it and a screen reader says what it is. A group, not a region landmark: a landmark per
          table would crowd the landmark list and repeat the names of the sections the tables are in. */}
      {bare ? (
        table
      ) : (
        <div className="table-wrap" tabIndex={0} role="group" aria-label={label}>
          {table}
        </div>
      )}
    </ListFrame>
  );
}

/** The dash an empty cell shows, muted so it reads as "nothing" rather than as a value. */
export function NoValue({ text = '—' }: { text?: string }) {
  return <span className="muted">{text}</span>;
}
