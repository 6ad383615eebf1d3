/**
 * Where search words occur in a text, as the full-text index matches them: at the
 * start of a word, without regard to case or accents ("cafe" marks "Café"). Ranges
 * are in the original text, sorted and merged.
 */
export function searchWords(query: string): string[] {
  const words = query.normalize('NFKC').match(/[\p{L}\p{N}]+/gu)?.slice(0, 12) ?? [];
  return [...new Set(words.map(fold))].filter(Boolean);
}

const fold = (text: string): string => text.normalize('NFKD').replace(/\p{M}+/gu, '').toLowerCase();

export function hitRanges(text: string, words: readonly string[]): Array<[number, number]> {
  if (!text || words.length === 0) return [];
  // The folded text, and for each of its code units the original character it came from.
  let folded = '';
  const starts: number[] = [];
  const ends: number[] = [];
  for (let i = 0; i < text.length; ) {
    const char = String.fromCodePoint(text.codePointAt(i)!);
    const part = fold(char);
    for (let k = 0; k < part.length; k++) {
      starts.push(i);
      ends.push(i + char.length);
    }
    folded += part;
    i += char.length;
  }
  const ranges: Array<[number, number]> = [];
  for (const word of words) {
    for (let at = folded.indexOf(word); at >= 0; at = folded.indexOf(word, at + 1)) {
      if (at > 0 && /[\p{L}\p{N}]/u.test(folded[at - 1]) && starts[at - 1] !== starts[at]) continue;
      ranges.push([starts[at], ends[at + word.length - 1]]);
    }
  }
  ranges.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const merged: Array<[number, number]> = [];
  for (const range of ranges) {
    const last = merged[merged.length - 1];
    if (last && range[0] <= last[1]) last[1] = Math.max(last[1], range[1]);
    else merged.push([...range]);
  }
  return merged;
}
