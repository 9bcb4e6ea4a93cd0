import { useEffect, useState } from 'react';
import { TEMPLATE_CATEGORIES, type TemplateCategory } from '../../../shared/video.schema.js';
import type { TemplateInput } from '../../../shared/ipc-contract.js';
import { DataList } from '../../components/DataList';
import { RendererLabel } from '../../components/RendererLabel';
import { Icon } from '../../components/Icon';
import { PageHeader } from '../../components/PageHeader';
import { EmptyState } from '../../components/StatusViews';
import { categoryLabel } from '../../lib/format';
import { useAppStore } from '../../stores/app-store';
import { TemplateDetail } from './TemplateDetail';
import { TemplateForm } from './TemplateForm';
import { inputOf, draftOf } from './template-form-state';
import { TemplateThumb } from './TemplateThumb';

/** `start`: a body to begin from (a duplicate); `n` tells one duplicate's form from the next. */
type Mode = { kind: 'view' } | { kind: 'create'; start?: TemplateInput; n?: number } | { kind: 'edit'; id: string };

export function TemplatesScreen() {
  const templates = useAppStore((s) => s.templates);
  const category = useAppStore((s) => s.templateCategory);
  const setCategory = useAppStore((s) => s.setTemplateCategory);
  const loadTemplates = useAppStore((s) => s.loadTemplates);
  const selectedId = useAppStore((s) => s.selectedTemplateId);
  const selectTemplate = useAppStore((s) => s.selectTemplate);
  const [mode, setMode] = useState<Mode>({ kind: 'view' });
  // A template just created: its list item is brought into view and takes the focus the closed form had.
  const [created, setCreated] = useState<string | null>(null);

  useEffect(() => {
    void loadTemplates();
  }, [loadTemplates]);

  useEffect(() => {
    if (!created) return;
    const item = document.querySelector<HTMLElement>(`[data-template-id="${CSS.escape(created)}"]`);
    if (!item) return;
    item.scrollIntoView({ block: 'nearest' });
    item.focus({ preventScroll: true });
    setCreated(null);
  }, [created, templates.data]);

  const selected = templates.data.find((t) => t.id === selectedId) ?? null;
  const editing = mode.kind === 'edit' ? (templates.data.find((t) => t.id === mode.id) ?? null) : null;

  return (
    <div className="page page-wide">
      <PageHeader
        title="Templates"
        description="Video templates with typed input variables. Built-in templates are read-only; your own can be edited."
        actions={
          <button type="button" className="btn btn-primary" onClick={() => setMode({ kind: 'create' })}>
            New template
          </button>
        }
      />
      <div className="master-detail">
        <section className="card master" aria-label="Template list">
          <div className="master-toolbar">
            <label className="inline-label" htmlFor="template-category">
              Category
            </label>
            <select
              id="template-category"
              value={category ?? ''}
              onChange={(e) => void setCategory((e.target.value || null) as TemplateCategory | null)}
            >
              <option value="">All categories</option>
              {TEMPLATE_CATEGORIES.map((c) => (
                <option key={c} value={c}>
                  {categoryLabel(c)}
                </option>
              ))}
            </select>
          </div>
          <DataList
            label="Templates"
            className="item-list"
            testId="template-list"
            keepWhenEmpty
            items={templates.data}
            itemKey={(t) => t.id}
            load={{ state: templates, noun: 'templates', onRetry: () => void loadTemplates() }}
            empty={
              <EmptyState
                title={category ? `No ${categoryLabel(category).toLowerCase()} templates` : 'No templates'}
                testId="templates-empty"
              />
            }
            renderItem={(t) => (
              <button
                type="button"
                className={`item${selectedId === t.id && mode.kind === 'view' ? ' selected' : ''}`}
                aria-current={selectedId === t.id ? 'true' : undefined}
                data-template-id={t.id}
                onClick={() => {
                  selectTemplate(t.id);
                  setMode({ kind: 'view' });
                }}
              >
                <span className="item-title-row">
                  <TemplateThumb templateId={t.id} category={t.category} title={t.title} />
                  <span className="item-title">{t.title}</span>
                  {t.builtin ? (
                    <span className="item-flag" title="Built-in (read-only)">
                      <Icon name="lock" size={13} />
                      <span className="sr-only">Built-in</span>
                    </span>
                  ) : (
                    <span className="badge badge-success">Custom</span>
                  )}
                </span>
                <span className="item-meta">
                  <span className="badge badge-accent">{categoryLabel(t.category)}</span>
                  <span>
                    {t.input_variables.length} variable{t.input_variables.length === 1 ? '' : 's'}
                  </span>
                  <RendererLabel item={t} compact />
                </span>
              </button>
            )}
          />
        </section>
        <section className="card detail" aria-label="Template detail">
          {mode.kind === 'create' ? (
            <TemplateForm
              key={`new-${mode.n ?? 0}`}
              template={null}
              start={mode.start ?? null}
              onCancel={() => setMode({ kind: 'view' })}
              onSaved={(t) => {
                selectTemplate(t.id);
                setMode({ kind: 'view' });
                setCreated(t.id);
              }}
            />
          ) : mode.kind === 'edit' && editing ? (
            <TemplateForm
              template={editing}
              onCancel={() => setMode({ kind: 'view' })}
              onSaved={() => setMode({ kind: 'view' })}
            />
          ) : selected ? (
            <TemplateDetail
              template={selected}
              onEdit={() => setMode({ kind: 'edit', id: selected.id })}
              onDuplicate={() =>
                setMode({
                  kind: 'create',
                  start: { ...inputOf(draftOf(selected)), title: `Copy of ${selected.title}`.slice(0, 200) },
                  n: Date.now(),
                })
              }
            />
          ) : (
            <EmptyState title="Select a template">
              Choose a template on the left to see its variables, or create a new one.
            </EmptyState>
          )}
        </section>
      </div>
    </div>
  );
}
