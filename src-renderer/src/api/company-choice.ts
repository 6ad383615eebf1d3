/**
 * The company the desktop window works for. Over IPC the window is the local user
 * of every company, so the choice lives here (and survives restarts); in a browser
 * the token decides the company and this is never read.
 */
const STORAGE_KEY = 'silodesk.company';

export function chosenCompany(): string | undefined {
  try {
    return window.localStorage.getItem(STORAGE_KEY) ?? undefined;
  } catch {
    return undefined;
  }
}

export function chooseCompany(id: string | undefined): void {
  if (id) window.localStorage.setItem(STORAGE_KEY, id);
  else window.localStorage.removeItem(STORAGE_KEY);
}
