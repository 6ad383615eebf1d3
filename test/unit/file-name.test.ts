import { describe, expect, it } from 'vitest';
import { contentDisposition, isInlineSafe, mimeFromName, unsafeFileNameReason } from '../../src-main/core/silo/file-name.ts';

describe('attachment names', () => {
  it.each([
    'invoice.pdf',
    'Factura nº 12 — café.pdf',
    '請求書.xml',
    '.hidden',
    'a'.repeat(255),
  ])('accepts %j', (name) => {
    expect(unsafeFileNameReason(name)).toBeUndefined();
  });

  it.each([
    ['', 'empty'],
    ['.', 'dot'],
    ['..', 'dot dot'],
    ['../../x', 'path'],
    ['a/b', 'slash'],
    ['a\\b', 'backslash'],
    ['C:evil', 'drive'],
    ['CON', 'device'],
    ['nul.txt', 'device with extension'],
    ['com1', 'serial port'],
    ['LPT9.pdf', 'printer'],
    ['x\u0000y', 'NUL'],
    ['x\ny', 'newline'],
    ['x\u202Efdp.exe', 'right-to-left override'],
    ['name.', 'trailing dot'],
    ['name ', 'trailing space'],
    [' name', 'leading space'],
    ['a'.repeat(256), 'too long'],
    ['é'.repeat(128), 'too many bytes'],
    ['a'.repeat(5000), '5 KB'],
  ])('refuses %j (%s)', (name) => {
    expect(unsafeFileNameReason(name)).toBeTypeOf('string');
  });
});

describe('download headers', () => {
  it('keeps an ASCII fallback and the exact UTF-8 name', () => {
    expect(contentDisposition('café "x".pdf', true)).toBe(
      `inline; filename="caf_ _x_.pdf"; filename*=UTF-8''caf%C3%A9%20%22x%22.pdf`,
    );
    expect(contentDisposition('a.html', false)).toMatch(/^attachment; /);
  });

  it('guesses types from extensions and shows inline only what runs nothing', () => {
    expect(mimeFromName('x.PDF')).toBe('application/pdf');
    expect(mimeFromName('noext')).toBe('application/octet-stream');
    expect(isInlineSafe('application/pdf')).toBe(true);
    expect(isInlineSafe('image/png')).toBe(true);
    expect(isInlineSafe('text/html')).toBe(false);
    expect(isInlineSafe('image/svg+xml')).toBe(false);
  });
});
