// cbc: code maps, definitions and URIs.
import type { PredicateTable } from './table.ts';
import { goRegExp } from '../../go-regexp.ts';
import { isObject } from '../values.ts';

const KEY = /^(?:[a-z]|[a-z0-9][a-z0-9-+]*[a-z0-9])$/;

function validKey(k: string): boolean {
  return k.length >= 1 && k.length <= 64 && KEY.test(k);
}

// Go's url.Parse then "a scheme and something after it".
function validUri(v: unknown): boolean {
  const s = typeof v === 'string' ? v : '';
  const m = /^([A-Za-z][A-Za-z0-9+.-]*):(.*)$/s.exec(s);
  if (!m || /[\s\x00-\x1f\x7f]/.test(s)) return false;
  return m[2] !== '' && m[2] !== '//';
}

function isRegexp(v: unknown): boolean {
  if (typeof v !== 'string' || v === '') return true;
  try {
    goRegExp(v);
    return true;
  } catch {
    return false;
  }
}

export const cbc: PredicateTable = {
  'valid keys': (v) => isObject(v) && Object.keys(v).every(validKey),
  'is a regexp': isRegexp,
  'valid uri': validUri,
};
