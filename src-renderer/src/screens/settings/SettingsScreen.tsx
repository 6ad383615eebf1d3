import { useApiEnv } from '../../app/ApiContext.tsx';
import { AuditLog } from './AuditLog.tsx';
import { BackupSettings } from './BackupSettings.tsx';
import { CompanySettings } from './CompanySettings.tsx';
import { DataSettings } from './DataSettings.tsx';
import { LocalApiSettings } from './LocalApiSettings.tsx';
import { SyncSettingsCard } from '../sync/SyncSettingsCard.tsx';
import { ThemeSettings } from './ThemeSettings.tsx';
import './settings.css';

export function SettingsScreen() {
  const { transport } = useApiEnv();
  return (
    <section className="screen" aria-label="Settings">
      <div className="screen-scroll">
        <div className="page settings-page">
          <div className="page-header">
            <div>
              <h1>Settings</h1>
              <p>The company you work on, how Silodesk looks, and where your data lives.</p>
            </div>
          </div>
          <CompanySettings />
          <ThemeSettings />
          <SyncSettingsCard />
          {transport === 'ipc' && <LocalApiSettings />}
          <DataSettings />
          <BackupSettings />
          <AuditLog />
        </div>
      </div>
    </section>
  );
}
