let lastMs = Number.NaN;
let lastIso = '';

/**
 * ISO 8601 with milliseconds and Z, the one timestamp format of the API. A job's writes ask
 * for it a few dozen times within one millisecond: the text is made once per millisecond.
 */
export const nowIso = (): string => {
  const ms = Date.now();
  if (ms !== lastMs) {
    lastIso = new Date(ms).toISOString();
    lastMs = ms;
  }
  return lastIso;
};
