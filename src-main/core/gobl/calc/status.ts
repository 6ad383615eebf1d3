// A status document has no figures: a build fills in its issue date (today, UTC, as GOBL's
// cal.Today does for statuses) and numbers its lines.
import type { Node } from '../engine/types.ts';
import { civilNow } from './issue-date.ts';

export function calculateStatus(doc: Node, now: Date): void {
  if (typeof doc.issue_date !== 'string' || doc.issue_date === '') doc.issue_date = civilNow(now, 'UTC').date;
  if (!Array.isArray(doc.lines)) return;
  doc.lines.forEach((line: unknown, i: number) => {
    if (typeof line === 'object' && line !== null) (line as Node).index = i + 1;
  });
}
