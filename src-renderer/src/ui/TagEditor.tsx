import { useId, useState, type KeyboardEvent } from 'react';
import { Icon } from './Icon.tsx';

interface TagEditorProps {
  tags: string[];
  onChange(tags: string[]): void;
  /** tags seen elsewhere, offered as the user types */
  suggestions?: string[];
  label?: string;
  disabled?: boolean;
}

/** Tags as removable chips plus a field that adds one on Enter or comma. */
export function TagEditor({ tags, onChange, suggestions = [], label = 'Add a tag', disabled }: TagEditorProps) {
  const [draft, setDraft] = useState('');
  const listId = useId();

  function add(raw: string) {
    const tag = raw.trim();
    setDraft('');
    if (!tag || tags.includes(tag)) return;
    onChange([...tags, tag]);
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key === 'Enter' || event.key === ',') {
      event.preventDefault();
      add(draft);
    } else if (event.key === 'Backspace' && draft === '' && tags.length > 0) {
      onChange(tags.slice(0, -1));
    }
  }

  const offered = suggestions.filter((s) => !tags.includes(s));
  return (
    <div className="tag-editor">
      <ul className="chips" aria-label="Tags">
        {tags.map((tag) => (
          <li key={tag} className="chip">
            {tag}
            <button type="button" aria-label={`Remove tag ${tag}`} disabled={disabled} onClick={() => onChange(tags.filter((t) => t !== tag))}>
              <Icon name="x" />
            </button>
          </li>
        ))}
      </ul>
      <input
        className="input tag-input"
        aria-label={label}
        placeholder="Add tag…"
        list={offered.length ? listId : undefined}
        value={draft}
        disabled={disabled}
        onChange={(event) => setDraft(event.target.value)}
        onKeyDown={onKeyDown}
        onBlur={() => draft.trim() && add(draft)}
      />
      {offered.length > 0 && (
        <datalist id={listId}>
          {offered.map((s) => (
            <option key={s} value={s} />
          ))}
        </datalist>
      )}
    </div>
  );
}
