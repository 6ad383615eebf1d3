// GOBL's exact decimal numbers: Amount (mantissa + exponent) and Percentage (a ratio).
export { Amount } from './amount.ts';
export { Percentage } from './percentage.ts';
export { MAX_DIGITS, parseDecimal, plainDecimal } from './parse.ts';
export type { Mantissa } from './mantissa.ts';
