/**
 * The revision of GOBL's engine and data in this build: a hash of every file of the
 * GOBL module but this one (test/unit/gobl/engine-revision.test.ts fails until it is
 * set again after any change there). A verdict the engine gave a stored document is
 * taken as still standing only when it was given under this revision (silo/check-mark.ts):
 * a changed rule or rate table makes every earlier verdict unknown, not wrong.
 */
export const ENGINE_REVISION = 'e29076135cb44546';
