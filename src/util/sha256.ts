/** node:crypto, loaded on the first hash only: most hook runs hash nothing. */
const crypto = () => process.getBuiltinModule('node:crypto');

/** The hex SHA-256 of `text` encoded as UTF-8. */
export function sha256Hex(text: string): string {
  return crypto().createHash('sha256').update(text, 'utf8').digest('hex');
}

/** The hex SHA-256 of `bytes` (a file's content: the protocol's content_hash gates). */
export function sha256HexBytes(bytes: Uint8Array): string {
  return crypto().createHash('sha256').update(bytes).digest('hex');
}
