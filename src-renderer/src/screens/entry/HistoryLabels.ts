import { formatMoney } from '../../format/money.ts';

/** What changed in a version, in words (the API's `changed`). */
const CHANGED: Record<string, string> = {
  document: 'Document',
  state: 'State',
  folder: 'Folder',
  tags: 'Tags',
  key: 'Key',
  trash: 'Trash',
};
export const changedLabel = (part: string): string => CHANGED[part] ?? part;

/** What a version did, in words (the API's `action`). */
const ACTIONS: Record<string, string> = {
  created: 'Created',
  changed: 'Changed',
  trashed: 'Moved to the trash',
  restored: 'Restored from the trash',
  reverted: 'Restored an earlier version',
  recorded: 'History started',
};
export const actionLabel = (action: string, revertedFrom?: string): string =>
  action === 'reverted' && revertedFrom ? `Restored version ${revertedFrom}` : (ACTIONS[action] ?? action);

const LABELS: Record<string, string> = { state: 'State', folder: 'Folder', tags: 'Tags', key: 'Key', trash: 'In the trash' };

/**
 * A JSON path as a person reads it: `$.doc.lines[0].item.price` → "Lines 1 › Item › Price".
 * The envelope's own parts (head, signatures) keep their names; labels have theirs.
 */
export function pathLabel(path: string): string {
  if (LABELS[path]) return LABELS[path];
  const parts: string[] = [];
  const rest = path.replace(/^\$\.doc/, '').replace(/^\$/, '');
  for (const m of rest.matchAll(/\.([A-Za-z_$][\w$]*)|\[(\d+)\]|\['((?:[^'\\]|\\.)*)'\]/g)) {
    if (m[1] !== undefined) parts.push(words(m[1]));
    else if (m[2] !== undefined) parts.push(String(Number(m[2]) + 1));
    else parts.push(m[3]);
  }
  if (path.startsWith('$.doc') && parts.length === 0) return 'Document';
  return parts.join(' › ') || path;
}

const words = (key: string): string => {
  const text = key.replace(/^\$/, '').replace(/_/g, ' ');
  return text ? text[0].toUpperCase() + text.slice(1) : key;
};

/** One side of a change, for reading: money in the document's currency and the user's locale, anything else short. */
export function valueText(value: unknown, currency?: string): string {
  if (value === undefined) return '—';
  if (currency && typeof value === 'string') return formatMoney(value, currency);
  if (typeof value === 'string') return value === '' ? '(empty)' : value;
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return value.length ? value.join(', ') : '(none)';
  const json = JSON.stringify(value);
  return json.length > 240 ? `${json.slice(0, 239)}…` : json;
}
