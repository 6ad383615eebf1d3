// Which objects are HashedBytes (hashed-bytes.ts makes them). Apart from the hashing, which
// needs Node, so that the operation contracts (bundled into the window too) can ask.
// An object of the same shape from anywhere else (a JSON body, a structured clone over IPC)
// is not one: a body's schema takes these where it takes base64 text.
const made = new WeakSet<object>();

export function markHashedBytes<T extends object>(value: T): T {
  made.add(value);
  return value;
}

export function isHashedBytes(value: unknown): boolean {
  return typeof value === 'object' && value !== null && made.has(value);
}
