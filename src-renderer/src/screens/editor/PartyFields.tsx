import type { EditorFault } from './fault-fields.ts';
import { EditorField } from './EditorField.tsx';
import type { PartyForm } from './invoice-form.ts';

interface PartyFieldsProps {
  role: 'supplier' | 'customer';
  legend: string;
  party: PartyForm;
  faults: Map<string, EditorFault[]>;
  onChange(party: PartyForm): void;
  hint?: string;
}

/** Name, tax id, address and email of a party. */
export function PartyFields({ role, legend, party, faults, onChange, hint }: PartyFieldsProps) {
  const set = (key: keyof Omit<PartyForm, 'rest'>) => (event: { target: { value: string } }) => onChange({ ...party, [key]: event.target.value });
  const at = (key: string) => faults.get(`${role}.${key}`);
  return (
    <fieldset className="editor-card party-fields" aria-describedby={hint ? `${role}-hint` : undefined}>
      <legend>{legend}</legend>
      {hint && (
        <p className="muted party-hint" id={`${role}-hint`}>
          {hint}
        </p>
      )}
      <EditorField label="Name" faults={at('name')} className="span-2">
        {(c) => <input {...c} className="input" name={`${role}-name`} value={party.name} onChange={set('name')} autoComplete="organization" />}
      </EditorField>
      <EditorField label="Tax ID country" faults={at('tax_country')}>
        {(c) => <input {...c} className="input" name={`${role}-tax-country`} value={party.tax_country} onChange={set('tax_country')} maxLength={2} placeholder="ES" />}
      </EditorField>
      <EditorField label="Tax ID" faults={at('tax_code')}>
        {(c) => <input {...c} className="input" name={`${role}-tax-code`} value={party.tax_code} onChange={set('tax_code')} placeholder="B98602642" />}
      </EditorField>
      <EditorField label="Street" faults={at('street')} className="span-2">
        {(c) => <input {...c} className="input" name={`${role}-street`} value={party.street} onChange={set('street')} />}
      </EditorField>
      <EditorField label="Postcode" faults={at('code')}>
        {(c) => <input {...c} className="input" name={`${role}-postcode`} value={party.code} onChange={set('code')} />}
      </EditorField>
      <EditorField label="Town" faults={at('locality')}>
        {(c) => <input {...c} className="input" name={`${role}-town`} value={party.locality} onChange={set('locality')} />}
      </EditorField>
      <EditorField label="Country" faults={at('country')}>
        {(c) => <input {...c} className="input" name={`${role}-country`} value={party.country} onChange={set('country')} maxLength={2} placeholder="ES" />}
      </EditorField>
      <EditorField label="Email" faults={at('email')}>
        {(c) => <input {...c} className="input" type="email" name={`${role}-email`} value={party.email} onChange={set('email')} />}
      </EditorField>
    </fieldset>
  );
}
