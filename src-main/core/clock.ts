/** ISO 8601 with milliseconds and Z, the one timestamp format of the API. */
export const nowIso = (): string => new Date().toISOString();
