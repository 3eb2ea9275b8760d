/**
 * A credential with its first character changed, never to itself (a fixed replacement letter would be no
 * change now and then). The first character: the last one of a base64 text may carry only padding bits.
 */
export function tampered(value: string): string {
  return `${value[0] === 'A' ? 'B' : 'A'}${value.slice(1)}`;
}

/** A link whose `signature` query parameter is tampered with. */
export function withTamperedSignature(link: string): string {
  return link.replace(/signature=([^&]+)/, (_, signature: string) => `signature=${tampered(signature)}`);
}
