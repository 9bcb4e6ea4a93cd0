import { ProviderConnect } from '../../components/ProviderConnect';
import { SettingsSection } from './SettingsSection';

/** The AI video providers templates can name: their keys (stored, never shown again) and ComfyUI's address. */
export function ProvidersSection() {
  return (
    <SettingsSection
      id="providers"
      title="Video providers"
      description="A fal.ai key or a Replicate token lets templates render with that provider; it goes to the OS keychain (or the encrypted secrets file) and is never shown again. ComfyUI needs only its address. Templates without a provider render with the local draft renderer."
    >
      <ProviderConnect />
    </SettingsSection>
  );
}
