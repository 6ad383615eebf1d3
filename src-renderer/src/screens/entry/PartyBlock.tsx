import { addressLines, obj, objs, personName, str, taxIdText, type Json } from './gobl.ts';

/** A supplier or customer as a letterhead shows it: name, tax id, address, contacts. */
export function PartyBlock({ role, party }: { role: string; party: unknown }) {
  const p = obj(party);
  return (
    <section className="party" aria-label={role}>
      <h3 className="section-title">{role}</h3>
      {!p ? (
        <p className="muted">Not stated</p>
      ) : (
        <address>
          <strong className="party-name">{str(p.name) ?? str(p.alias) ?? '—'}</strong>
          {str(p.alias) && str(p.name) && <span className="muted">{str(p.alias)}</span>}
          {taxIdText(p) && <span>Tax ID {taxIdText(p)}</span>}
          {objs(p.identities).map((id: Json, i) => (
            <span key={i} className="muted">
              {str(id.label) ?? str(id.type) ?? str(id.key) ?? 'ID'} {str(id.code)}
            </span>
          ))}
          {objs(p.addresses)
            .slice(0, 2)
            .map((address, i) => (
              <span key={i} className="party-address">
                {addressLines(address).map((line) => (
                  <span key={line}>{line}</span>
                ))}
              </span>
            ))}
          {objs(p.people)
            .map(personName)
            .filter(Boolean)
            .map((name) => (
              <span key={name}>{name}</span>
            ))}
          {objs(p.emails).map((email, i) => (
            <span key={i}>{str(email.addr)}</span>
          ))}
          {objs(p.telephones).map((phone, i) => (
            <span key={i}>{str(phone.num)}</span>
          ))}
        </address>
      )}
    </section>
  );
}
