/** A compact JWS split into what a person can read. The signature itself is checked by the service (verifySeries). */
export interface DecodedJws {
  header: Record<string, unknown>;
  payload: unknown;
  signature: string;
}

function base64UrlText(part: string): string {
  const base64 = part.replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(part.length / 4) * 4, '=');
  const binary = atob(base64);
  return new TextDecoder().decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)));
}

export function decodeJws(token: string): DecodedJws | undefined {
  const parts = token.split('.');
  if (parts.length !== 3) return undefined;
  try {
    const header = JSON.parse(base64UrlText(parts[0])) as Record<string, unknown>;
    const text = base64UrlText(parts[1]);
    let payload: unknown = text;
    try {
      payload = JSON.parse(text);
    } catch {
      // A payload need not be JSON; show it as text.
    }
    return { header, payload, signature: parts[2] };
  } catch {
    return undefined;
  }
}
