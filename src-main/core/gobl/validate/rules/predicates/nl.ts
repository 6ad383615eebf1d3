// Netherlands (regimes/nl): VAT codes `#########B##` (mod 11 on the number, or the newer
// mod 97 over the whole "NL…" code); the supplier needs a VAT code or a KVK/OIN identity.
import { onCode } from './table.ts';
import type { PredicateTable } from './table.ts';
import { hasTaxIdCode, identityOfType, partyIdentities } from './party.ts';

function mod11(num: number): number {
  let sum = 0;
  let n = num;
  for (let i = 0; i < 8; i++) {
    n = Math.floor(n / 10);
    sum += (n % 10) * (i + 2);
  }
  sum %= 11;
  return sum > 9 ? 0 : sum;
}

// Letters count as two digits (A=10 … Z=35), as GOBL's check does.
function mod97(code: string): boolean {
  let r = 0n;
  for (const ch of code) {
    const c = ch >= '0' && ch <= '9' ? ch.charCodeAt(0) - 48 : ch.charCodeAt(0) - 55;
    r *= c > 9 ? 100n : 10n;
    r += BigInt(c);
  }
  return r % 97n === 1n;
}

function validVatCode(code: string): boolean {
  if (code.length !== 12 || code[9] !== 'B') return false;
  const number = code.slice(0, 9);
  const check = code.slice(10, 12);
  if (!/^[+-]?\d+$/.test(number) || !/^[+-]?\d+$/.test(check)) return false;
  const num = Number(number);
  return mod11(num) === num % 10 || mod97(`NL${number}B${check}`);
}

export const nl: PredicateTable = {
  valid: onCode(validVatCode),
  'has tax ID code or KVK/OIN identity': (v) => hasTaxIdCode(v) || identityOfType(partyIdentities(v), 'KVK', 'OIN') !== undefined,
};
