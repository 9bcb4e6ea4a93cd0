import { useState } from 'react';
import type { Theme } from '../../../shared/ipc-contract.js';
import { errorMessage } from '../../lib/api';
import { useAppStore } from '../../stores/app-store';
import { SettingsSection } from './SettingsSection';

const CHOICES: { value: Theme; label: string; hint: string }[] = [
  { value: 'system', label: 'System', hint: 'Light or dark as the operating system is set, switching with it' },
  { value: 'light', label: 'Light', hint: 'Always light' },
  { value: 'dark', label: 'Dark', hint: 'Always dark' },
];

export function AppearanceSection() {
  const theme = useAppStore((s) => s.theme);
  const setTheme = useAppStore((s) => s.setTheme);
  const [problem, setProblem] = useState<string | null>(null);
  return (
    <SettingsSection id="appearance" title="Appearance">
      <fieldset className="choice-group">
        <legend className="label-text">Theme</legend>
        {CHOICES.map((c) => (
          <label key={c.value} className="choice">
            <input
              type="radio"
              name="theme"
              value={c.value}
              checked={theme === c.value}
              onChange={() =>
                setTheme(c.value).then(
                  () => setProblem(null),
                  (err: unknown) => setProblem(errorMessage(err)),
                )
              }
            />
            <span>
              <span className="choice-label">{c.label}</span>
              <span className="choice-hint">{c.hint}</span>
            </span>
          </label>
        ))}
      </fieldset>
      {problem ? <p className="error-text">The theme was not kept: {problem}</p> : null}
    </SettingsSection>
  );
}
