// Formats a path as the JSON path used in faults and API `fields`. Names that
// look like JavaScript identifiers (including `$`, so `$.doc.$schema` reads as
// written) use dot notation; anything else uses brackets with single quotes,
// e.g. `$.doc.tax.ext['es-facturae-doc-type']`.

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

export function jsonPath(segments: ReadonlyArray<PropertyKey>): string {
  let path = '$';
  for (const segment of segments) {
    if (typeof segment === 'number') path += `[${segment}]`;
    else {
      const name = String(segment);
      path += IDENTIFIER.test(name) ? `.${name}` : `['${name.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}']`;
    }
  }
  return path;
}
