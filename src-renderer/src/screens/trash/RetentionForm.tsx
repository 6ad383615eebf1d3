import { useEffect, useState } from 'react';
import { ApiClientError } from '../../api/errors.ts';
import { useApi } from '../../app/ApiContext.tsx';
import { useToast } from '../../ui/Toasts.tsx';

/** How many days the trash keeps things (the owner's to set; 1 to 3650). */
export function RetentionForm({ days, onSaved }: { days: number; onSaved(): void }) {
  const api = useApi();
  const toast = useToast();
  const [value, setValue] = useState(String(days));
  const [error, setError] = useState<string>();
  const [saving, setSaving] = useState(false);
  useEffect(() => setValue(String(days)), [days]);

  return (
    <form
      className="retention-form"
      aria-label="Trash retention"
      onSubmit={async (event) => {
        event.preventDefault();
        setSaving(true);
        setError(undefined);
        try {
          const saved = await api.putTrashSettings({ body: { retention_days: Number(value) } });
          toast(`The trash now keeps things ${saved.retention_days} days`, { kind: 'success' });
          onSaved();
        } catch (err) {
          setError(err instanceof ApiClientError ? (err.fields?.['$.retention_days'] ?? err.message) : String(err));
        } finally {
          setSaving(false);
        }
      }}
    >
      <label htmlFor="trash-retention">Keep for</label>
      <input
        id="trash-retention"
        className="input"
        type="number"
        min={1}
        max={3650}
        value={value}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? 'trash-retention-error' : undefined}
        onChange={(event) => setValue(event.target.value)}
      />
      <span>days</span>
      <button type="submit" className="btn btn-sm" disabled={saving || value === String(days)}>
        {saving ? 'Saving…' : 'Save'}
      </button>
      {error && (
        <span id="trash-retention-error" className="field-error">
          {error}
        </span>
      )}
    </form>
  );
}
