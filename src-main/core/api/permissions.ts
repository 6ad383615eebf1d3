import { operations } from './contract/index.ts';
import type { CallerKind, OperationContract } from './operation.ts';

export const CALLER_KINDS: readonly CallerKind[] = ['owner', 'user', 'app'];

export function mayCall(contract: OperationContract, kind: CallerKind): boolean {
  return contract.access === 'public' || contract.access.includes(kind);
}

/** The permissions table as Markdown, generated from the contracts (README embeds it; a test keeps them equal). */
export function permissionsMarkdown(): string {
  const rows = Object.entries(operations as Record<string, OperationContract>).map(([name, op]) => {
    const cells = op.access === 'public' ? ['public', 'public', 'public'] : CALLER_KINDS.map((k) => (mayCall(op, k) ? '✓' : '—'));
    return `| \`${op.method} ${op.path}\` | ${name} | ${cells.join(' | ')} |`;
  });
  return ['| Operation | Name | Owner | User | Application |', '|---|---|---|---|---|', ...rows].join('\n');
}
