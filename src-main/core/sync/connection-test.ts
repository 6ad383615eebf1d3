import type { Ctx } from '../api/handler.ts';
import { classify } from './controller.ts';
import { remoteApi } from './remote-client.ts';
import { normalizeRemoteUrl } from './remote-url.ts';
import { loadConfig } from './settings.ts';

/**
 * Reaches the remote once (no retries: the person is waiting) with the URL and
 * token given, or the stored ones, and says what answered.
 */
export async function testConnection(ctx: Ctx, input: { remote_url?: string; token?: string }) {
  const stored = await loadConfig(ctx.service.db, ctx.caller.companyKey);
  const url = input.remote_url ?? stored?.remote_url;
  const token = input.token ?? stored?.token;
  if (!url || !token) return { ok: false, error: { kind: 'config', message: 'give a remote URL and a token, or save them first' } };
  let baseUrl: string;
  try {
    baseUrl = normalizeRemoteUrl(url);
  } catch (err) {
    return { ok: false, error: classify(err) };
  }
  const options = ctx.service.sync.options;
  const remote = remoteApi({
    baseUrl,
    token,
    retry: { ...options.retry, maxAttempts: 1, timeoutMs: Math.min(options.retry.timeoutMs, 10_000) },
    signal: new AbortController().signal,
  });
  const started = performance.now();
  try {
    const session = await remote.getSession();
    if (session.instance_id === ctx.service.instanceId) {
      return { ok: false, error: { kind: 'config', message: 'that URL is this instance itself' } };
    }
    return {
      ok: true,
      latency_ms: Math.round(performance.now() - started),
      remote_instance_id: session.instance_id,
      remote_company: { id: session.company.id, name: session.company.name },
      caller_kind: session.caller.kind,
    };
  } catch (err) {
    return { ok: false, error: classify(err) };
  }
}
