import { useEffect, useState } from 'react';
import { DataList } from '../../components/DataList';
import { PageHeader } from '../../components/PageHeader';
import { EmptyState, Notice } from '../../components/StatusViews';
import { Thumbnail } from '../../components/Thumbnail';
import { formatDate } from '../../lib/format';
import { useScrollIntoView } from '../../lib/use-scroll-into-view';
import { useAppStore } from '../../stores/app-store';
import { MIN_CHARACTER_QUERY } from '../../stores/characters.slice';
import { CharacterDetail } from './CharacterDetail';
import { CharacterForm } from './CharacterForm';

export function CharactersScreen() {
  const characters = useAppStore((s) => s.characters);
  const characterQuery = useAppStore((s) => s.characterQuery);
  const search = useAppStore((s) => s.searchCharacters);
  const [text, setText] = useState(characterQuery);
  const [showForm, setShowForm] = useState(false);
  const [openId, setOpenId] = useState<string | null>(null);
  // The confirmation of the last character made here (the form closes, so it says so in its place).
  const [created, setCreated] = useState<{ id: string; name: string } | null>(null);
  const opened = characters.data.find((c) => c.id === openId) ?? null;
  // The form that had the focus is gone: the confirmation takes it (and comes into view), not the page's body.
  const createdRef = useScrollIntoView<HTMLDivElement>(created?.id ?? null, { focus: true });

  // Debounced search; 1 character is too short for the API, so it keeps the full list and says why.
  useEffect(() => {
    const q = text.trim();
    if (q.length > 0 && q.length < MIN_CHARACTER_QUERY) return;
    const t = setTimeout(() => void search(q), q ? 250 : 0);
    return () => clearTimeout(t);
  }, [text, search]);

  const tooShort = text.trim().length > 0 && text.trim().length < MIN_CHARACTER_QUERY;
  return (
    <div className="page">
      <PageHeader
        title="Characters"
        description="Reusable people that can stand in for image variables of ingredients-to-video templates."
        actions={
          <button
            type="button"
            className="btn btn-primary"
            onClick={() => {
              setShowForm((v) => !v);
              setCreated(null);
            }}
            aria-expanded={showForm}
          >
            {showForm ? 'Close form' : 'New character'}
          </button>
        }
      />
      {showForm ? (
        <CharacterForm
          onCreated={(c) => {
            setShowForm(false);
            setCreated(c);
          }}
        />
      ) : null}
      {created ? (
        <div data-testid="character-created" ref={createdRef} tabIndex={-1}>
          <Notice tone="success">
            Created “{created.name}”: it is in the library below.{' '}
            <button type="button" className="btn btn-secondary btn-small" onClick={() => setOpenId(created.id)}>
              Open it
            </button>
          </Notice>
        </div>
      ) : null}
      {opened ? <CharacterDetail key={opened.id} character={opened} onClose={() => setOpenId(null)} /> : null}
      <section className="card" aria-labelledby="characters-title">
        <div className="card-header">
          <h2 id="characters-title">Library</h2>
          {characters.status === 'ready' ? (
            <span className="muted">
              {characters.data.length} {characterQuery ? `matching “${characterQuery}”` : 'characters'}
            </span>
          ) : null}
        </div>
        <div className="toolbar">
          <div className="search">
            <label htmlFor="character-search" className="sr-only">
              Search characters
            </label>
            <input
              id="character-search"
              type="search"
              placeholder="Search by name (at least 2 characters)"
              value={text}
              onChange={(e) => setText(e.target.value)}
              aria-describedby={tooShort ? 'character-search-hint' : undefined}
            />
          </div>
        </div>
        {tooShort ? (
          <p className="field-hint" id="character-search-hint" role="status">
            Type at least {MIN_CHARACTER_QUERY} characters to search.
          </p>
        ) : null}
        <DataList
          label="Characters"
          className="character-grid"
          testId="character-list"
          items={characters.data}
          itemKey={(c) => c.id}
          itemClassName={(c) => `character-card${openId === c.id ? ' selected' : ''}`}
          itemTestId="character-card"
          load={{ state: characters, noun: 'characters', onRetry: () => void search(text) }}
          empty={
            <EmptyState title={characterQuery ? 'No character matches' : 'No characters yet'} testId="characters-empty">
              {characterQuery ? 'Try another name.' : 'Create one with an uploaded reference image.'}
            </EmptyState>
          }
          renderItem={(c) => (
            <>
              {c.reference_image_urls[0] ? (
                <Thumbnail url={c.reference_image_urls[0]} contentType="image/png" alt="" size="medium" />
              ) : (
                <div className="avatar" aria-hidden="true">
                  {c.name.slice(0, 1).toUpperCase()}
                </div>
              )}
              <div className="character-body">
                <div className="character-name">
                  <span className="cell-title">{c.name}</span>
                  <span className={`badge ${c.visibility === 'public' ? 'badge-neutral' : 'badge-accent'}`}>
                    {c.visibility}
                  </span>
                </div>
                {c.description ? <p className="cell-sub clamp-2">{c.description}</p> : null}
                <p className="cell-sub">
                  {c.reference_image_keys.length} reference image{c.reference_image_keys.length === 1 ? '' : 's'}
                  {c.created_at ? ` · ${formatDate(c.created_at)}` : ''}
                </p>
                <button
                  type="button"
                  className="btn btn-secondary btn-small character-open"
                  aria-label={`Open ${c.name}`}
                  aria-pressed={openId === c.id}
                  onClick={() => setOpenId(openId === c.id ? null : c.id)}
                >
                  Open
                </button>
              </div>
            </>
          )}
        />
      </section>
    </div>
  );
}
