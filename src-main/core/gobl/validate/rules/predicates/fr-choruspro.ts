// fr-choruspro addon (France, Chorus Pro): framework A2 is "already paid"; party schemes
// (1 SIRET, 2 EU, 3 outside the EU) and what each requires.
import type { PredicateTable } from './table.ts';
import { parseDec } from '../decimal.ts';
import { extCode, isNil, list, obj, str } from '../values.ts';
import type { Check } from '../model.ts';
import { taxExt } from './invoice.ts';

// GOBL's l10n EU union, current members (GB left on 2020-01-31; Greece is GR or EL).
const EU = new Set(['AT', 'BE', 'BG', 'CY', 'CZ', 'DE', 'DK', 'EE', 'ES', 'FI', 'FR', 'GR', 'EL', 'HR', 'HU', 'IE', 'IT', 'LT', 'LU', 'LV', 'MT', 'NL', 'PL', 'PT', 'RO', 'SE', 'SI', 'SK']);

function partyScheme(v: unknown): string | undefined {
  const p = obj(v);
  if (!p || !obj(p.ext) || Object.keys(p.ext).length === 0) return undefined;
  return extCode(p.ext, 'fr-choruspro-scheme');
}

function schemeIs(code: string): Check {
  return (v) => partyScheme(v) === code;
}

const hasSiret = (v: unknown): boolean => list(v).some((id) => str(obj(id)?.type) === 'SIRET');

export const frChoruspro: PredicateTable = {
  'framework is paid': (v) => obj(v) !== undefined && taxExt(v, 'fr-choruspro-framework') === 'A2',
  paid: (v) => {
    const totals = obj(v);
    if (!totals || isNil(totals.due)) return false;
    const due = parseDec(totals.due);
    return due !== undefined && due.m === 0n;
  },
  'party scheme is 1': schemeIs('1'),
  'party scheme is 2': schemeIs('2'),
  'party scheme is 3': schemeIs('3'),
  'party scheme is not 1': (v) => {
    const scheme = partyScheme(v);
    return scheme !== undefined && scheme !== '' && scheme !== '1';
  },
  'has SIRET': (v) => Array.isArray(v) && hasSiret(v),
  'no SIRET': (v) => !Array.isArray(v) || !hasSiret(v),
  'EU member': (v) => str(v) === '' || EU.has(str(v)),
  'non-EU': (v) => str(v) === '' || !EU.has(str(v)),
};
