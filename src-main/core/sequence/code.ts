export interface Numbering {
  prefix: string;
  padding: number;
  suffix: string;
}

/** `prefix + zero-padded index + suffix`; padding is a minimum width, never a cap. */
export const entryCode = (n: Numbering, index: number): string =>
  `${n.prefix}${String(index).padStart(n.padding, '0')}${n.suffix}`;
