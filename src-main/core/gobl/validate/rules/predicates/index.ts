// The registry of named predicates: for each rules namespace (a GOBL package, regime or addon
// family, as the rules files name it in `package`), the checks its descriptions refer to.
import type { Check, Origin } from '../model.ts';
import type { PredicateTable } from './table.ts';
import { ar } from './ar.ts';
import { arArca } from './ar-arca.ts';
import { at } from './at.ts';
import { be } from './be.ts';
import { bill } from './bill.ts';
import { br } from './br.ts';
import { cal } from './cal.ts';
import { cbc } from './cbc.ts';
import { ch } from './ch.ts';
import { co } from './co.ts';
import { coDian } from './co-dian.ts';
import { currency } from './currency.ts';
import { de } from './de.ts';
import { deXrechnung } from './de-xrechnung.ts';
import { dk } from './dk.ts';
import { es } from './es.ts';
import { esSii } from './es-sii.ts';
import { esTbai } from './es-tbai.ts';
import { esVerifactu } from './es-verifactu.ts';
import { euEn16931 } from './eu-en16931.ts';
import { fi } from './fi.ts';
import { fr } from './fr.ts';
import { frChoruspro } from './fr-choruspro.ts';
import { gb } from './gb.ts';
import { gobl } from './gobl.ts';
import { gr } from './gr.ts';
import { grMydata } from './gr-mydata.ts';
import { head } from './head.ts';
import { ie } from './ie.ts';
import { india } from './in.ts';
import { it } from './it.ts';
import { itSdi } from './it-sdi.ts';
import { itTicket } from './it-ticket.ts';
import { mx } from './mx.ts';
import { nl } from './nl.ts';
import { no } from './no.ts';
import { org } from './org.ts';
import { pl } from './pl.ts';
import { plFavat } from './pl-favat.ts';
import { pt } from './pt.ts';
import { se } from './se.ts';
import { sg } from './sg.ts';
import { tax } from './tax.ts';

const TABLES: Readonly<Record<string, PredicateTable>> = {
  ar,
  'ar-arca': arArca,
  at,
  be,
  bill,
  br,
  cal,
  cbc,
  ch,
  co,
  'co-dian': coDian,
  currency,
  de,
  'de-xrechnung': deXrechnung,
  dk,
  es,
  'es-sii': esSii,
  'es-tbai': esTbai,
  'es-verifactu': esVerifactu,
  'eu-en16931': euEn16931,
  fi,
  fr,
  'fr-choruspro': frChoruspro,
  gb,
  gobl,
  gr,
  'gr-mydata': grMydata,
  head,
  ie,
  in: india,
  it,
  'it-sdi': itSdi,
  'it-ticket': itTicket,
  mx,
  nl,
  no,
  org,
  pl,
  'pl-favat': plFavat,
  pt,
  se,
  sg,
  tax,
};

/** Every registered name, as `namespace: key`, so tests can find entries nothing refers to. */
export function registeredPredicates(): string[] {
  return Object.entries(TABLES).flatMap(([pkg, table]) => Object.keys(table).map((key) => `${pkg}: ${key}`));
}

/**
 * The named predicate a description refers to in a namespace: qualified by assertion id or
 * by the set's GOBL type where one namespace gives two functions the same name.
 */
export function namedPredicate(origin: Origin, name: string, id?: string): Check | undefined {
  const table = TABLES[origin.pkg];
  if (!table) return undefined;
  return (id !== undefined ? table[`${id} ${name}`] : undefined) ?? table[`${origin.object} ${name}`] ?? table[name];
}

// GOBL's num.Positive is Min(0).Exclusive(), which still renders as "min 0" like
// num.ZeroOrPositive. These assertions use the exclusive form (amounts must be > 0).
const EXCLUSIVE_BOUNDS = new Set([
  'GOBL-BILL-PAYMENTLINE-02',
  'GOBL-BILL-PAYMENTLINE-04',
  'GOBL-CURRENCY-EXCHANGERATE-04',
  'GOBL-GR-MYDATA-BILL-INVOICE-10',
]);

export function exclusiveBound(assertionId: string): boolean {
  return EXCLUSIVE_BOUNDS.has(assertionId);
}
