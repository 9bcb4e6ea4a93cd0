// Saving a part of the core's settings (port, storage, browser, concurrency): settings:update writes
// config.json and restarts the core; its field issues land on the form's fields.
import { useState } from 'react';
import type { CoreSettingsPatch } from '../../../shared/ipc-contract.js';
import type { FieldLabels } from '../../lib/field-errors';
import { useFormErrors, type FormErrors } from '../../lib/use-form-errors';
import { useAppStore } from '../../stores/app-store';
import type { SettingsUpdate } from '../../stores/settings.slice';

export interface CoreSettingsSave extends FormErrors {
  busy: boolean;
  /** What the last save did, in words (null before the first one). */
  outcome: { tone: 'success' | 'warning'; text: string } | null;
  save(patch: CoreSettingsPatch, onSaved?: (result: SettingsUpdate) => void): Promise<void>;
}

export function useCoreSettingsSave(labels: FieldLabels): CoreSettingsSave {
  const form = useFormErrors(labels);
  const saveCoreSettings = useAppStore((s) => s.saveCoreSettings);
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<CoreSettingsSave['outcome']>(null);
  const save = async (patch: CoreSettingsPatch, onSaved?: (result: SettingsUpdate) => void) => {
    setBusy(true);
    setOutcome(null);
    form.clear();
    try {
      const result = await saveCoreSettings(patch);
      if (!result.restarted) setOutcome({ tone: 'success', text: 'Nothing changed.' });
      else if (result.serverError)
        setOutcome({ tone: 'warning', text: `Saved, and the API restarted, but: ${result.serverError}` });
      else
        setOutcome({
          tone: 'success',
          text: `Saved. The API restarted${result.serverUrl ? ` and listens on ${result.serverUrl}` : ''}.`,
        });
      onSaved?.(result);
    } catch (err) {
      form.fail(err);
    } finally {
      setBusy(false);
    }
  };
  return { ...form, busy, outcome, save };
}
