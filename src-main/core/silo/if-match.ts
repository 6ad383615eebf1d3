import { ifMatchAccepts, type IfMatch } from '../api/contract/preconditions.ts';
import { preconditionFailed } from '../api/errors.ts';

/** The precondition headers an entry write may carry (contract/preconditions.ts). */
export interface EntryPreconditions {
  'if-match'?: IfMatch;
}

/**
 * Refuses (412) a write whose `If-Match` names a version the entry is no longer at,
 * or an entry that does not exist. Without the header the write is unconditional,
 * as it always was. Called again inside the write's transaction, with the version read
 * there, so no other request can change the entry in between.
 */
export function checkIfMatch(id: string, version: number | undefined, preconditions: EntryPreconditions | undefined): void {
  const header = preconditions?.['if-match'];
  if (!header || ifMatchAccepts(header, version)) return;
  if (version === undefined) {
    throw preconditionFailed(`entry ${id} does not exist, so it cannot match If-Match`, { 'if-match': 'no such entry' });
  }
  const wanted = 'versions' in header ? header.versions.join(', ') : '*';
  throw preconditionFailed(
    `entry ${id} changed elsewhere: it is at version ${version}, not ${wanted}. Reload it and make the change again.`,
    { 'if-match': `the entry is at version ${version}` },
  );
}
