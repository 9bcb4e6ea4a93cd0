import { useEffect, useRef } from 'react';
import { RefreshButton, type ListLoad } from '../../components/ListFrame';
import { PageHeader } from '../../components/PageHeader';
import { EmptyState, Loading } from '../../components/StatusViews';
import { useAppStore } from '../../stores/app-store';
import type { SavedLoginView } from '../../stores/saved-logins.slice';
import { ImportPanel } from './ImportPanel';
import { SavedLoginDetail } from './SavedLoginDetail';
import { SavedLoginForm } from './SavedLoginForm';
import { SavedLoginsList } from './SavedLoginsList';
import './saved-logins.css';

const idOf = (view: SavedLoginView) => ('id' in view ? view.id : null);

/**
 * Saved logins (the vault): a site's login kept once by the person, used by agents by its label or id without
 * ever seeing its secrets. One screen with four views: the list, one saved login, its form, the import.
 */
export function SavedLoginsScreen() {
  const savedLogins = useAppStore((s) => s.savedLogins);
  const load = useAppStore((s) => s.loadSavedLogins);
  const view = useAppStore((s) => s.savedLoginView);
  const show = useAppStore((s) => s.showSavedLogins);
  const methods = useAppStore((s) => s.loginMethods);
  const loadMethods = useAppStore((s) => s.loadLoginMethods);
  // The view shown before (null: none yet, the screen just opened).
  const last = useRef<SavedLoginView | null>(null);

  useEffect(() => {
    void load();
  }, [load]);
  useEffect(() => {
    if (methods.status === 'idle') void loadMethods();
  }, [methods.status, loadMethods]);

  // A new view (or the screen opened on one, from a session): the focus goes to its heading; back on the list,
  // to the row the person came from.
  useEffect(() => {
    const before = last.current;
    last.current = view;
    if (before === view || (before === null && view.kind === 'list')) return;
    if (view.kind === 'list') {
      const id = before ? idOf(before) : null;
      const row = id ? document.querySelector<HTMLElement>(`[data-open-id="${CSS.escape(id)}"]`) : null;
      (row ?? document.getElementById('saved-logins-list-title'))?.focus();
    } else {
      document.querySelector<HTMLElement>('[data-view-heading]')?.focus();
    }
    document.getElementById('main')?.scrollTo({ top: 0 });
  }, [view]);

  const listLoad: ListLoad = { state: savedLogins, noun: 'saved logins', onRetry: () => void load() };
  const id = idOf(view);
  const saved = id ? (savedLogins.data.find((s) => s.id === id) ?? null) : null;
  const toList = () => show({ kind: 'list' });

  let body;
  if (view.kind === 'list') {
    body = (
      <SavedLoginsList
        rows={savedLogins.data}
        load={listLoad}
        methods={methods.data}
        onOpen={(openId) => show({ kind: 'detail', id: openId })}
        onAdd={() => show({ kind: 'add' })}
        onImport={() => show({ kind: 'import' })}
      />
    );
  } else if (view.kind === 'import') {
    body = <ImportPanel onDone={toList} />;
  } else if (view.kind === 'add') {
    body = (
      <SavedLoginForm saved={null} onDone={(s) => show({ kind: 'detail', id: s.id, saved: true })} onCancel={toList} />
    );
  } else if (!saved) {
    body =
      savedLogins.status === 'ready' || savedLogins.status === 'error' ? (
        <EmptyState title="This saved login no longer exists" testId="saved-login-gone">
          It was deleted, perhaps from the API or the command line.
        </EmptyState>
      ) : (
        <Loading label="Loading the saved login…" />
      );
  } else if (view.kind === 'edit') {
    body = (
      <SavedLoginForm
        key={saved.id}
        saved={saved}
        onDone={() => show({ kind: 'detail', id: saved.id, saved: true })}
        onCancel={() => show({ kind: 'detail', id: saved.id })}
      />
    );
  } else {
    body = (
      <SavedLoginDetail
        saved={saved}
        justSaved={view.kind === 'detail' && view.saved === true}
        onEdit={() => show({ kind: 'edit', id: saved.id })}
        onDeleted={toList}
      />
    );
  }

  return (
    <div className="page saved-logins-page">
      <PageHeader
        title="Saved logins"
        description="A site’s login, kept once on this computer. Agents log in with it by its label and never see the password; the use log shows who did."
        actions={
          view.kind === 'list' ? (
            <>
              <RefreshButton load={listLoad} />
              <button type="button" className="btn btn-secondary" onClick={() => show({ kind: 'import' })}>
                Import
              </button>
              <button type="button" className="btn btn-primary" onClick={() => show({ kind: 'add' })}>
                Add saved login
              </button>
            </>
          ) : null
        }
      />
      {view.kind !== 'list' ? (
        <nav aria-label="Saved logins" className="back-row">
          <button
            type="button"
            className="btn btn-secondary btn-small"
            onClick={view.kind === 'edit' && saved ? () => show({ kind: 'detail', id: saved.id }) : toList}
          >
            <span aria-hidden="true">←</span>{' '}
            {view.kind === 'edit' && saved ? `Back to “${saved.label}”` : 'All saved logins'}
          </button>
        </nav>
      ) : null}
      {body}
    </div>
  );
}
