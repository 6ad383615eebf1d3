// The Luhn check digit as GOBL computes it for Italian and French codes: doubling from the
// rightmost digit of the body.
export function luhnCheckDigit(body: string): string {
  let sum = 0;
  let pos = 0;
  for (let i = body.length - 1; i >= 0; i--) {
    let d = body.charCodeAt(i) - 48;
    if (pos % 2 === 0) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
    pos++;
  }
  return String((10 - (sum % 10)) % 10);
}

/** pkg/luhn Check: a numeric code whose own last digit makes the Luhn sum a multiple of 10. */
export function luhnValid(code: string): boolean {
  if (code === '' || /\D/.test(code)) return false;
  let sum = 0;
  for (let i = code.length - 1, k = 0; i >= 0; i--, k++) {
    let d = code.charCodeAt(i) - 48;
    if (k % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}
