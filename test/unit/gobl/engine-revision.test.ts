import { describe, expect, it } from 'vitest';
import { ENGINE_REVISION } from '../../../src-main/core/gobl/engine/revision.ts';
import { goblSourcesHash } from '../../support/gobl-sources.ts';

describe('the GOBL engine revision', () => {
  it('names the GOBL module as it is: any change to its code or data asks for a new one', () => {
    // On failure: set ENGINE_REVISION in src-main/core/gobl/engine/revision.ts to the hash received.
    // Verdicts stored under the old revision are then checked again (silo/check-mark.ts).
    expect(ENGINE_REVISION).toBe(goblSourcesHash());
  });
});
