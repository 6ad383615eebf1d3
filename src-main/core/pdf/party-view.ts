import type { Formatter } from './formatter.ts';
import { humanize, isSet, obj, objects, str, type Json } from './gobl-read.ts';

export interface PartyView {
  heading: string;
  name: string;
  /** tax id, other identities, address lines, email, telephone */
  details: string[];
}

// Countries that write the house number before the street name.
const NUMBER_FIRST = new Set(['US', 'CA', 'GB', 'IE', 'AU', 'NZ', 'FR', 'LU', 'SG', 'IN', 'PH', 'MY', 'ZA']);

/** How a supplier or customer block reads. */
export function partyView(heading: string, party: Json, fmt: Formatter): PartyView {
  const taxId = obj(party.tax_id);
  const taxCode = taxId && str(taxId.code);
  const details: string[] = [];
  if (taxCode) details.push(`Tax ID: ${str(taxId.country) ?? ''}${taxCode}`);
  for (const identity of objects(party.identities)) {
    const code = str(identity.code);
    const kind = str(identity.type) ?? str(identity.label) ?? (str(identity.key) && humanize(str(identity.key)!));
    if (code) details.push(kind ? `${kind}: ${code}` : code);
  }
  const address = objects(party.addresses)[0];
  if (address) details.push(...addressLines(address, fmt));
  const email = str(objects(party.emails)[0]?.addr);
  if (email) details.push(email);
  const phone = str(objects(party.telephones)[0]?.num);
  if (phone) details.push(`Tel. ${phone}`);

  // A simplified invoice's customer may have no name, only a tax id.
  const name = str(party.name) ?? str(party.alias) ?? (taxCode ? `${str(taxId?.country) ?? ''}${taxCode}` : '—');
  return { heading, name, details };
}

function addressLines(address: Json, fmt: Formatter): string[] {
  const country = str(address.country);
  const lines: string[] = [];
  const poBox = str(address.po_box);
  if (poBox) lines.push(`PO Box ${poBox}`);

  const street = str(address.street);
  const num = str(address.num);
  const numberFirst = country !== undefined && NUMBER_FIRST.has(country);
  const streetLine = street && num ? (numberFirst ? `${num} ${street}` : `${street} ${num}`) : (street ?? num);
  const unit = [address.block, address.floor, address.door].map(str).filter(isSet).join(' ');
  if (streetLine) lines.push(unit ? `${streetLine}, ${unit}` : streetLine);
  const extra = str(address.street_extra);
  if (extra) lines.push(extra);

  const locality = str(address.locality);
  const region = str(address.region) ?? str(address.state);
  const code = str(address.code);
  if (country === 'US' || country === 'CA') {
    const cityLine = [locality, [region, code].filter(isSet).join(' ')].filter((p) => p).join(', ');
    if (cityLine) lines.push(cityLine);
  } else {
    const cityLine = [code, locality].filter(isSet).join(' ');
    if (cityLine) lines.push(cityLine);
    if (region && region !== locality) lines.push(region);
  }
  if (country) lines.push(fmt.country(country));
  return lines;
}
