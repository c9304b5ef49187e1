/** node:crypto, loaded on the first hash only: most hook runs hash nothing. */
const crypto = () => process.getBuiltinModule('node:crypto');

/** A SHA-256 hash to feed in pieces (`update`, then `digest`). */
export function sha256Hash(): import('node:crypto').Hash {
  return crypto().createHash('sha256');
}

/** `bytes` random bytes as hex (unique ids, not secrets). */
export function randomHex(bytes: number): string {
  return crypto().randomBytes(bytes).toString('hex');
}

/** The hex SHA-256 of `text` encoded as UTF-8. */
export function sha256Hex(text: string): string {
  return crypto().createHash('sha256').update(text, 'utf8').digest('hex');
}

/** The hex SHA-256 of `bytes` (a file's content: the protocol's content_hash gates). */
export function sha256HexBytes(bytes: Uint8Array): string {
  return crypto().createHash('sha256').update(bytes).digest('hex');
}
