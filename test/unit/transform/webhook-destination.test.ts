import { describe, expect, it } from 'vitest';
import { checkWebhookDestination } from '../../../src-main/core/transform/providers/webhook-destination.ts';

const allowed = ['erp.example.com:8443', 'hooks.example.org', '[2001:db8::1]:9000', 'BIG.Example.NET', 'not a host', '::1'];

describe('checkWebhookDestination', () => {
  it.each([
    // loopback, however it is spelled, as WHATWG URL normalises it
    ['http://127.0.0.1:8080/hook', true],
    ['http://127.255.255.254/', true],
    ['https://localhost/hook', true],
    ['http://LOCALHOST:3000/', true],
    ['http://[::1]:8080/hook', true],
    ['http://[0:0:0:0:0:0:0:1]/', true],
    ['http://2130706433/', true],
    ['http://0x7f000001/', true],
    ['http://0177.0.0.1/', true],
    ['http://127.1/', true],
    ['http://%31%32%37.0.0.1/', true],
    // look like loopback, are not
    ['http://localhost.evil.com/', false],
    ['http://localhost./', false],
    ['http://sub.localhost/', false],
    ['http://127.0.0.1.nip.io/', false],
    ['http://127.0.0.1@evil.com/', false],
    ['http://127.0.0.1%2f@evil.com/', false],
    ['http://evil.com\\@127.0.0.1/', false],
    ['http://0.0.0.0/', false],
    ['http://0/', false],
    ['http://[::ffff:127.0.0.1]/', false],
    ['http://2130706432/', true],
    ['http://2130706431/', false],
    ['http://10.0.0.1/', false],
    ['http://192.168.1.10/', false],
    ['http://169.254.169.254/latest/meta-data/', false],
    ['http://example.invalid/', false],
    // the allow list: exact host (any port) or host:port
    ['https://erp.example.com:8443/in', true],
    ['https://erp.example.com/in', false],
    ['http://erp.example.com:8444/in', false],
    ['https://hooks.example.org/x', true],
    ['http://hooks.example.org:81/x', true],
    ['https://HOOKS.EXAMPLE.ORG/x', true],
    ['https://hooks.example.org./x', false],
    ['https://evil-hooks.example.org/x', false],
    ['https://hooks.example.org.evil.com/x', false],
    ['https://big.example.net/', true],
    ['http://[2001:db8::1]:9000/', true],
    ['http://[2001:db8:0::1]:9000/', true],
    ['http://[2001:db8::1]:9001/', false],
  ])('%s → %s', (url, ok) => {
    const check = checkWebhookDestination(url, allowed);
    expect(check.ok).toBe(ok);
    if (!check.ok) expect(check.code).toBe('host-not-allowed');
  });

  it.each([
    ['ftp://127.0.0.1/', 'scheme-not-allowed'],
    ['file:///etc/passwd', 'scheme-not-allowed'],
    ['javascript:alert(1)', 'scheme-not-allowed'],
    ['http://user:secret@127.0.0.1/', 'credentials-not-allowed'],
    ['http://user@localhost/', 'credentials-not-allowed'],
    ['not a url', 'bad-url'],
    ['http://256.0.0.1/', 'bad-url'],
    ['http://127.0.0.1:0x50/', 'bad-url'],
  ])('%s is refused as %s', (url, code) => {
    const check = checkWebhookDestination(url, allowed);
    expect(check).toMatchObject({ ok: false, code });
  });

  it('hands back the URL as parsed, which is what must be requested', () => {
    const check = checkWebhookDestination('http://0x7f000001:8080/a?b=1', []);
    expect(check.ok && check.url.href).toBe('http://127.0.0.1:8080/a?b=1');
  });

  it('allows only loopback when no hosts are configured', () => {
    expect(checkWebhookDestination('https://erp.example.com/', []).ok).toBe(false);
    expect(checkWebhookDestination('http://localhost/', []).ok).toBe(true);
  });
});
