import type { ReactNode } from 'react';
import { ListFrame, type ListLoad } from './ListFrame';

export interface DataListProps<Item> {
  items: readonly Item[];
  itemKey: (item: Item) => string;
  /** The content of one `<li>`; the list supplies the element, its key, class and test id. */
  renderItem: (item: Item) => ReactNode;
  /** The list's accessible name. */
  label?: string;
  /** The list's look (`mailbox-list`, `character-grid`, …); the styles stay with each screen. */
  className: string;
  testId?: string;
  itemClassName?: string | ((item: Item) => string);
  itemTestId?: string;
  /** A fetched list: its error, first-load and `empty` states show above the list (see ListFrame). */
  load?: ListLoad;
  /** Shown when there are no items (for a fetched list: once it has loaded). */
  empty?: ReactNode;
  /** Render the empty `<ul>` too, where a test or layout expects the list element to exist. */
  keepWhenEmpty?: boolean;
}

/**
 * The `<ul>` counterpart of DataTable, for rows shown as cards or tiles: one key per item, the same
 * loading / empty / error states, and the markup in one place.
 */
export function DataList<Item>(props: DataListProps<Item>) {
  const { items, itemKey, renderItem, itemClassName, itemTestId } = props;
  return (
    <ListFrame rows={items} load={props.load} empty={props.empty} keepWhenEmpty={props.keepWhenEmpty}>
      <ul className={props.className} aria-label={props.label} data-testid={props.testId}>
        {items.map((item) => (
          <li
            key={itemKey(item)}
            className={typeof itemClassName === 'function' ? itemClassName(item) : itemClassName}
            data-testid={itemTestId}
          >
            {renderItem(item)}
          </li>
        ))}
      </ul>
    </ListFrame>
  );
}
