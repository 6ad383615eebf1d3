/**
 * One validation problem in a document. `path` is a JSON path from the
 * envelope root, e.g. `$.doc.lines[0].quantity`; `provider` names who found it
 * (always 'silo' for Silodesk's own checks).
 */
export type Fault = {
  code: string;
  message: string;
  provider: string;
  path: string;
};
