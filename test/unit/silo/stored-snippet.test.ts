import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { storedSnippetOf } from '../../../src-main/core/silo/hosted-snippet.ts';
import { snippetFieldSql, snippetFromStored, storedSnippetText, type SnippetSqlField } from '../../../src-main/core/silo/stored-snippet.ts';
import { loadEnvelopes } from '../../fixtures/gobl/load.ts';

const snippets = loadEnvelopes().map(({ file, envelope }) => ({ file, snippet: storedSnippetOf(envelope) }));

describe('a stored snippet', () => {
  it('reads back as the very snippet for every fixture, members in the same order, at about a third of its size', () => {
    let object = 0;
    let packed = 0;
    for (const { file, snippet } of snippets) {
      const text = storedSnippetText(snippet, 'sqlite');
      expect(text.startsWith('[1,'), file).toBe(true);
      const back = snippetFromStored(text);
      expect(back, file).toEqual(snippet);
      expect(Object.keys(back), file).toEqual(Object.keys(snippet));
      object += JSON.stringify(snippet).length;
      packed += text.length;
    }
    expect(packed / object).toBeLessThan(0.5);
  });

  it('names a repeat only where it is one: a title of other words, a party whose shown name is not its name', () => {
    const snippet = {
      title: 'My own title',
      type: 'standard',
      code: '7',
      supplier: 'Shop', // shown by its alias: the party has another name
      supplier_name: 'Shop Holdings Ltd.',
      supplier_alias: 'Shop',
      customer: 'ES54387763P', // shown by its tax id: no name at all
      customer_country: 'ES',
      total: '12.10',
      net: '10.00',
      sum: '11.00',
      tax: '2.10',
      total_with_tax: '12.10',
      payable: '12.10',
    };
    const text = storedSnippetText(snippet, 'sqlite');
    expect(JSON.parse(text)).toContain('My own title');
    expect(JSON.parse(text)).toContain('Shop Holdings Ltd.');
    expect(snippetFromStored(text)).toEqual(snippet);
    // A title that is the one its members make is named, not repeated.
    const named = { ...snippet, title: 'Invoice 7 — Shop → ES54387763P' };
    expect(JSON.parse(storedSnippetText(named, 'sqlite'))[1]).toBe(1);
    expect(snippetFromStored(storedSnippetText(named, 'sqlite'))).toEqual(named);
    const payment = { title: 'Payment receipt 9 — Shop', type: 'receipt', code: '9', supplier: 'Shop' };
    expect(JSON.parse(storedSnippetText(payment, 'sqlite'))[1]).toBe(2);
    expect(snippetFromStored(storedSnippetText(payment, 'sqlite'))).toEqual(payment);
  });

  it('stays an object where the array cannot hold it (a member it does not know), and on PostgreSQL', () => {
    const odd = { title: 'x', brand_new_member: 'y' };
    expect(storedSnippetText(odd, 'sqlite')).toBe(JSON.stringify(odd));
    expect(snippetFromStored(storedSnippetText(odd, 'sqlite'))).toEqual(odd);
    const { snippet } = snippets[0];
    expect(storedSnippetText(snippet, 'postgres')).toBe(JSON.stringify(snippet));
    expect(() => snippetFromStored('[2,"x"]')).toThrow(/unknown format 2/);
  });

  it('answers SQL the same members from either form, and none where a snippet has none', () => {
    const db = new Database(':memory:');
    const fields: SnippetSqlField[] = ['type', 'currency', 'total', 'net', 'tax', 'issue_date'];
    const read = db.prepare(`SELECT ${fields.map((f) => `${snippetFieldSql('s', f)} AS ${f}`).join(', ')} FROM (SELECT ? AS s)`);
    for (const { file, snippet } of snippets) {
      const expected = Object.fromEntries(fields.map((f) => [f, snippet[f] ?? null]));
      expect(read.get(JSON.stringify(snippet)), file).toEqual(expected);
      expect(read.get(storedSnippetText(snippet, 'sqlite')), file).toEqual(expected);
    }
  });
});
