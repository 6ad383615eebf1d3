import { z } from 'zod';
import { jsonObject } from '../api/contract/common.ts';
import { defineProvider, type Provider } from './provider.ts';

/**
 * Step providers of the hosted service that need its network connections: tax
 * agencies (`gov-*`), e-invoicing networks and clearance platforms, format
 * services and SaaS integrations. Taken from the hosted docs' workflow templates
 * and app pages; an app's steps share its prefix (`peppol.send`, `peppol.lookup`),
 * so a step of an app listed here is known even if the app adds steps later.
 *
 * A workflow naming one is stored as written (a workflow copied from the hosted
 * console keeps working elsewhere) and the step ends KO `hosted-only` when run.
 */
const HOSTED_APPS = new Set([
  'at-pt', 'chargebee', 'chorus-pro', 'cii', 'cron', 'dropbox', 'email', 'google-drive', 'ilyda', 'invoicexpress',
  'lookup', 'netsuite', 'nfe-br', 'peppol', 'plemsi', 'sat-mx', 'sdi-it', 'sefaz-auth', 'sefaz-key', 'slack',
  'stripe', 'sw-sapien', 'ticket-it', 'ubl', 'verifactu',
]);

/** Hosted core actions the desk does not run: they need the hosted job queue or its clock. */
const HOSTED_ACTIONS = new Set(['silo.correct', 'silo.sleep', 'transform.job.create']);

/** Whether `name` is a hosted provider (and not one of ours: callers check theirs first). */
export function isHostedProvider(name: string): boolean {
  const app = name.split('.')[0];
  return HOSTED_ACTIONS.has(name) || HOSTED_APPS.has(app) || /^gov-[a-z]{2}$/.test(app);
}

export const HOSTED_ONLY = 'hosted-only';

/**
 * What runs in place of a hosted provider: any config (it is the hosted service's
 * to check), and a final KO with a fault saying why, so the workflow's KO routes
 * and rescue steps run as they would for any failure.
 */
function hostedOnlyProvider(name: string): Provider<Record<string, unknown>> {
  const message = `${name} needs the hosted service (it talks to a network, agency or service Silodesk does not reach offline)`;
  return defineProvider({
    id: name,
    description: message,
    config: jsonObject as z.ZodType<Record<string, unknown>>,
    run: () => ({
      status: 'KO',
      code: HOSTED_ONLY,
      message,
      faults: [{ code: HOSTED_ONLY, message, provider: name, paths: [] }],
    }),
  });
}

/** The provider a step names: one of this instance's, a hosted stand-in, or none (unknown). */
export function resolveProvider(providers: Map<string, Provider<any>>, name: string): Provider<any> | undefined {
  return providers.get(name) ?? (isHostedProvider(name) ? hostedOnlyProvider(name) : undefined);
}
