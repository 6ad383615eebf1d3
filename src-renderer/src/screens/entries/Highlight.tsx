import { Fragment, memo } from 'react';
import { hitRanges } from '../../format/highlight.ts';

/** Text with the search words marked where the full-text search matched them. */
export const Highlight = memo(function Highlight({ text, words }: { text: string | undefined; words: readonly string[] }) {
  if (!text) return null;
  const ranges = hitRanges(text, words);
  if (ranges.length === 0) return <>{text}</>;
  const parts = [];
  let at = 0;
  for (const [start, end] of ranges) {
    if (start > at) parts.push(<Fragment key={`t${at}`}>{text.slice(at, start)}</Fragment>);
    parts.push(
      <mark key={`m${start}`} className="hit">
        {text.slice(start, end)}
      </mark>,
    );
    at = end;
  }
  if (at < text.length) parts.push(<Fragment key={`t${at}`}>{text.slice(at)}</Fragment>);
  return <>{parts}</>;
});
