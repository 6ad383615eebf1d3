/** Where a change came from, in words (the API's `via`). */
const VIA: Record<string, string> = {
  http: 'over HTTP',
  ipc: 'in the desktop app',
  sync: 'through sync',
  workflow: 'by a workflow',
  system: 'by Silodesk',
};

export const viaLabel = (via: string): string => VIA[via] ?? via;
