import { v5 as uuidv5 } from 'uuid';
import { z } from 'zod';
import { defineProvider, type StepContext, type StepResult } from '../provider.ts';
import { checkWebhookDestination } from './webhook-destination.ts';

// Fixed namespace for event ids: uuid v5 of job id + step id is the same on every
// retry, so the receiver can drop duplicates.
const EVENT_ID_NAMESPACE = 'e9c0b730-47c5-49f9-8fd2-d32428910c0d';

const webhookFields = z
  .object({
    callback_url: z.string().max(2048).refine(isHttpUrl, 'must be an http or https URL'),
    /** the event name the payload carries, e.g. `success` on the main path and `error` in rescue */
    event: z.string().max(100).regex(/^[^\p{Cc}]*$/u, 'must not contain control characters').optional(),
    // Printable ASCII without spaces: anything else could not go into a header anyway.
    bearer_token: z.string().min(1).max(4096).regex(/^[\x21-\x7e]+$/, 'must be printable ASCII without spaces').optional(),
  })
  .strict();

/**
 * The hosted step's config is `callback_url` + `event`; `url` is the name this desk
 * used first and stays accepted as an alias, so workflow versions stored with it
 * (versions are never rewritten) keep running. A config saved now stores
 * `callback_url`. Sending both is refused: `url` is then an unknown field.
 */
const webhookConfig = z.preprocess((raw) => {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return raw;
  const { url, ...rest } = raw as Record<string, unknown>;
  return url !== undefined && rest.callback_url === undefined ? { callback_url: url, ...rest } : raw;
}, webhookFields);

type WebhookConfig = z.output<typeof webhookFields>;

/**
 * POSTs the hosted webhook payload as JSON to a loopback or explicitly allowed host.
 * 200/204 → OK; 408, 429, 5xx, other 2xx, network errors, timeouts → ERR (the
 * engine retries); other 4xx and any 3xx (redirects are not followed: the
 * configured URL is wrong and stays wrong) → KO. The bearer token never appears
 * in a message or fault.
 */
export const webhookProvider = defineProvider<WebhookConfig>({
  id: 'webhook',
  secretFields: ['bearer_token'],
  description:
    'POSTs {id, event, transform_job_id, silo_entry_id, owner_id, key, args, faults} to callback_url (loopback or an '
    + 'allowed host); `event` names the outcome the step reports, e.g. success, or error in rescue steps',
  config: webhookConfig,
  run: async (ctx, config) => {
    const destination = checkWebhookDestination(config.callback_url, ctx.service.config.webhookAllowedHosts);
    if (!destination.ok) return { status: 'KO', code: destination.code, message: destination.reason };
    const { url } = destination;
    const event = await webhookEventOf(ctx, config.event);

    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'idempotency-key': event.id,
      'user-agent': 'Silodesk',
    };
    if (config.bearer_token) headers.authorization = `Bearer ${config.bearer_token}`;

    let status: number;
    try {
      const response = await fetch(url, {
        method: 'POST', headers, body: JSON.stringify(event), redirect: 'manual', signal: ctx.signal,
      });
      status = response.status;
      // Nothing in the answer is used: drop it so the connection is released.
      await response.body?.cancel().catch(() => undefined);
    } catch (err) {
      const result: StepResult = ctx.signal.aborted
        ? { status: 'ERR', code: 'timeout', message: `no answer from ${url.origin} in time` }
        : { status: 'ERR', code: 'network', message: `could not reach ${url.origin}: ${networkCauseOf(err)}` };
      return redacted(result, config.bearer_token);
    }
    return outcomeOf(status, url.origin);
  },
});

/**
 * The JSON body of a webhook call, in the hosted service's shape. `event` is the
 * step's configured name (empty when none): the hosted way to tell success from
 * error is one webhook step on the main path and another in the rescue steps,
 * each with its own event name. `owner_id` is the workspace (company).
 */
export async function webhookEventOf(ctx: StepContext, event = '') {
  return {
    id: uuidv5(`${ctx.job.id}/${ctx.step.id}`, EVENT_ID_NAMESPACE),
    event,
    transform_job_id: ctx.job.id,
    silo_entry_id: ctx.job.silo_entry_id,
    owner_id: ctx.owner.companyId,
    key: ctx.job.key ?? '',
    args: ctx.job.args,
    faults: await entryFaults(ctx),
  };
}

// The entry's validation faults and those earlier steps raised, as the job view shows them.
async function entryFaults(ctx: StepContext): Promise<unknown[]> {
  const { db } = ctx.service;
  const row = await db.first(
    db.q
      .selectFrom('entries')
      .select(['faults', 'step_faults'])
      .where('company_id', '=', ctx.owner.companyKey)
      .where('id', '=', ctx.job.silo_entry_id),
  );
  if (!row) return [];
  return [...parseList(row.faults), ...parseList(row.step_faults)];
}

function outcomeOf(status: number, origin: string): StepResult {
  const code = `http-${status}`;
  if (status === 200 || status === 204) return { status: 'OK', code, message: `${origin} answered ${status}` };
  if (status >= 300 && status < 400) {
    return { status: 'KO', code, message: `${origin} answered ${status}; redirects are not followed, configure the final URL` };
  }
  if (status >= 400 && status < 500 && status !== 408 && status !== 429) {
    return { status: 'KO', code, message: `${origin} refused the call with ${status}` };
  }
  return { status: 'ERR', code, message: `${origin} answered ${status}` };
}

function networkCauseOf(err: unknown): string {
  const cause = (err as { cause?: { code?: unknown; message?: unknown } })?.cause;
  if (typeof cause?.code === 'string') return cause.code;
  if (typeof cause?.message === 'string') return cause.message;
  return err instanceof Error ? err.message : String(err);
}

// Error texts come from the HTTP stack; make sure none can carry the token out.
function redacted(result: StepResult, token: string | undefined): StepResult {
  if (!token || !result.message?.includes(token)) return result;
  return { ...result, message: result.message.split(token).join('[redacted]') };
}

function parseList(json: string | null | undefined): unknown[] {
  try {
    const value: unknown = JSON.parse(json ?? '[]');
    return Array.isArray(value) ? value : [];
  } catch {
    return [];
  }
}

function isHttpUrl(value: string): boolean {
  try {
    const { protocol } = new URL(value);
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
}
