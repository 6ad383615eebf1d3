type Tone = 'good' | 'bad' | 'warn' | 'info' | 'busy' | 'plain';

const ENTRY_TONES: Record<string, Tone> = {
  draft: 'plain',
  empty: 'plain',
  processing: 'busy',
  registered: 'good',
  completed: 'good',
  sent: 'good',
  received: 'info',
  paid: 'good',
  error: 'bad',
  rejected: 'bad',
  invalid: 'bad',
  void: 'warn',
};

const JOB_TONES: Record<string, Tone> = {
  OK: 'good',
  KO: 'bad',
  ERR: 'warn',
  RUN: 'busy',
  QUEUED: 'info',
  SKIP: 'plain',
  CANCEL: 'warn',
  TIMEOUT: 'warn',
};

const JOB_LABELS: Record<string, string> = {
  OK: 'OK',
  KO: 'Failed',
  ERR: 'Retrying',
  RUN: 'Running',
  QUEUED: 'Queued',
  SKIP: 'Skipped',
  CANCEL: 'Cancelled',
  TIMEOUT: 'Timed out',
};

/** An entry's state label, coloured by what it means for the accountant. */
export function StateBadge({ state }: { state: string }) {
  return <span className={`badge tone-${ENTRY_TONES[state] ?? 'plain'}`}>{state}</span>;
}

/** A job's or step's status (OK, KO, RUN, …) in words; only what is running now pulses. */
export function JobStatusBadge({ status, live = true }: { status: string; live?: boolean }) {
  const tone = JOB_TONES[status] ?? 'plain';
  return (
    <span className={`badge tone-${tone === 'busy' && !live ? 'info' : tone}`} title={status}>
      {JOB_LABELS[status] ?? status}
    </span>
  );
}

export const ENTRY_STATES = Object.keys(ENTRY_TONES);
