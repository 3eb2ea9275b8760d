// The largest Flow JSON file the gateway accepts, from the API (src/http/flow-form.ts) and the portal alike.

/** Flow JSON is small text; a megabyte leaves room for a few inline images. */
export const FLOW_JSON_MAX_BYTES = 1024 * 1024;
