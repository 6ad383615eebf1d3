// The normalisers GOBL's regime packages register, one list per regime. US registers none.
import { regimeDef } from '../defs/index.ts';
import type { NormRule } from '../engine/types.ts';
import { aeNormRules } from './ae.ts';
import { arNormRules } from './ar.ts';
import { atNormRules } from './at.ts';
import { beNormRules } from './be.ts';
import { brNormRules } from './br.ts';
import { caNormRules } from './ca.ts';
import { chNormRules } from './ch.ts';
import { coNormRules } from './co.ts';
import { deNormRules } from './de.ts';
import { dkNormRules } from './dk.ts';
import { elNormRules } from './el.ts';
import { esNormRules } from './es.ts';
import { fiNormRules } from './fi.ts';
import { frNormRules } from './fr.ts';
import { gbNormRules } from './gb.ts';
import { ieNormRules } from './ie.ts';
import { inNormRules } from './in.ts';
import { itNormRules } from './it.ts';
import { mxNormRules } from './mx.ts';
import { nlNormRules } from './nl.ts';
import { noNormRules } from './no.ts';
import { plNormRules } from './pl.ts';
import { ptNormRules } from './pt.ts';
import { saNormRules } from './sa.ts';
import { seNormRules } from './se.ts';
import { sgNormRules } from './sg.ts';

// In GOBL's registration order (its regime packages, alphabetically; Greece's is `gr`).
const byRegime: Array<[string, NormRule[]]> = [
  ['AE', aeNormRules],
  ['AR', arNormRules],
  ['AT', atNormRules],
  ['BE', beNormRules],
  ['BR', brNormRules],
  ['CA', caNormRules],
  ['CH', chNormRules],
  ['CO', coNormRules],
  ['DE', deNormRules],
  ['DK', dkNormRules],
  ['ES', esNormRules],
  ['FI', fiNormRules],
  ['FR', frNormRules],
  ['GB', gbNormRules],
  ['EL', elNormRules],
  ['IE', ieNormRules],
  ['IN', inNormRules],
  ['IT', itNormRules],
  ['MX', mxNormRules],
  ['NL', nlNormRules],
  ['NO', noNormRules],
  ['PL', plNormRules],
  ['PT', ptNormRules],
  ['SA', saNormRules],
  ['SE', seNormRules],
  ['SG', sgNormRules],
];

const taxIdRules = byRegime.flatMap(([, rules]) => rules.filter((r) => r.type === 'tax.Identity'));

/**
 * The regime normalisers for a document of regime `code` (`ES`, `EL`, `GR`…; '' for
 * none): every regime's tax-identity rules, because GOBL normalises a tax ID by the
 * regime of the ID's own country whatever the document's regime, followed by the
 * document regime's other rules. Every rule carries its own guard.
 *
 * A tax ID whose country has no regime gets GOBL's standard cleaning from the generic
 * normalisers; a country with a regime gets only what its regime does (US: nothing,
 * MX: its own RFC rule), so the generic cleaning must not touch those.
 */
export function regimeNormRules(code: string): NormRule[] {
  const country = regimeDef(code)?.country;
  const own = byRegime.find(([c]) => c === country)?.[1] ?? [];
  return [...taxIdRules, ...own.filter((r) => r.type !== 'tax.Identity')];
}

/** Whether GOBL has a regime for a tax ID's country (the generic cleaning applies only when not). */
export function taxIdCountryHasRegime(country: string): boolean {
  return regimeDef(country) !== undefined;
}
