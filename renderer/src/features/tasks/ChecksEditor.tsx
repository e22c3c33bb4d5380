import { useState } from 'react';
import type { CheckType } from '../../../../electron/contract/index.js';
import { useT } from '../useApp.js';
import { CHECK_FIELDS, CHECK_TYPES, newDraft, type CheckDraft } from './checkDrafts.js';

/** Edits a list of acceptance-check drafts: add one of the contract's types, fill it in, remove it. */
export function ChecksEditor({ drafts, onChange }: { drafts: CheckDraft[]; onChange: (drafts: CheckDraft[]) => void }) {
  const t = useT();
  const [adding, setAdding] = useState<CheckType>('file_exists');
  const update = (index: number, draft: CheckDraft) => onChange(drafts.map((d, i) => (i === index ? draft : d)));

  return (
    <fieldset className="checks-editor" data-testid="checks-editor">
      <legend>{t('new.checks')}</legend>
      {drafts.length === 0 && <p className="hint">{t('new.noChecks')}</p>}
      {drafts.map((draft, index) => (
        <div key={index} className="check-draft" data-testid="check-draft" data-check-type={draft.type}>
          <strong>{t(`checkType.${draft.type}`)}</strong>
          <label>
            {t('new.checkName')}
            <input value={draft.name} maxLength={200} onChange={(e) => update(index, { ...draft, name: e.target.value })} />
          </label>
          {CHECK_FIELDS[draft.type].map((field) => {
            const value = draft.values[field.key] ?? '';
            const set = (v: string) => update(index, { ...draft, values: { ...draft.values, [field.key]: v } });
            const label = t(`checkField.${field.key}`);
            if (field.kind === 'boolean')
              return (
                <label key={field.key} className="inline">
                  <input type="checkbox" checked={value === 'true'} onChange={(e) => set(String(e.target.checked))} />
                  {label}
                </label>
              );
            return (
              <label key={field.key}>
                {label}
                {field.required ? ' *' : ''}
                {field.kind === 'lines' ? (
                  <textarea rows={2} value={value} onChange={(e) => set(e.target.value)} data-field={field.key} />
                ) : (
                  <input
                    value={value}
                    inputMode={field.kind === 'number' ? 'numeric' : undefined}
                    placeholder={field.kind === 'codes' ? '200, 204' : undefined}
                    onChange={(e) => set(e.target.value)}
                    data-field={field.key}
                  />
                )}
              </label>
            );
          })}
          <button type="button" onClick={() => onChange(drafts.filter((_, i) => i !== index))} data-testid="remove-check">
            {t('new.removeCheck')}
          </button>
        </div>
      ))}
      <div className="row">
        <select
          aria-label={t('new.checkType')}
          value={adding}
          onChange={(e) => setAdding(e.target.value as CheckType)}
          data-testid="check-type"
        >
          {CHECK_TYPES.map((type) => (
            <option key={type} value={type}>
              {t(`checkType.${type}`)}
            </option>
          ))}
        </select>
        <button type="button" onClick={() => onChange([...drafts, newDraft(adding)])} data-testid="add-check">
          {t('new.addCheck')}
        </button>
      </div>
    </fieldset>
  );
}
