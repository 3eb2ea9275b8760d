/**
 * The signature check users copy from docs/webhooks.md, loaded from examples/verify-webhook.mjs (the same
 * code), so the suites prove that the documented snippet verifies real deliveries.
 */
type Verify = (secret: string, headers: Record<string, unknown>, rawBody: string | Buffer) => boolean;

// A computed specifier: the example is plain JavaScript without type declarations.
const example = new URL('../../examples/verify-webhook.mjs', import.meta.url).href;
export const verifyAsDocumented: Verify = ((await import(example)) as { verify: Verify }).verify;
