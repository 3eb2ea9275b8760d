/**
 * A message's failure as a sentence for the portal, instead of the JSON it is stored as: what happened,
 * the network's code and title when the network said it, and for the common codes what to do about it.
 * Two stored shapes: the gateway's answer to a refused send (src/domain/unknown-outcomes.ts StoredError)
 * and the network's error of a failed status (docs/cloud-api.md: `{code, title, message?, error_data?}`).
 */

/** What to do, for the network codes a business meets most (docs/cloud-api.md, error codes). */
const HINTS: Record<number, string> = {
  131047: 'more than 24 hours passed since the user last wrote: send an approved template instead',
  131026: 'the number cannot receive this message (not on WhatsApp, or an outdated app)',
  131050: 'the user stopped marketing messages from this number',
  131056: 'too many messages to this user in a short time: wait a few seconds before the next',
  130429: 'this number sent faster than its throughput allows: send more slowly',
  132001: 'no approved template of that name and language on this number',
  131051: 'this kind of message is not supported',
};

type Json = Record<string, unknown>;

function parsed(stored: string): Json | null {
  try {
    const value: unknown = JSON.parse(stored);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : null;
  } catch {
    return null;
  }
}

/** `(network error 131047: Re-engagement message) — hint` from a network error object, or ''. */
function networkPart(error: Json | undefined): string {
  const code = typeof error?.code === 'number' ? error.code : undefined;
  if (code === undefined || code === 0) return '';
  const title = typeof error?.title === 'string' && error.title ? `: ${error.title}` : '';
  const hint = HINTS[code] ? ` — ${HINTS[code]}` : '';
  return `(network error ${code}${title})${hint}`;
}

export function failureInWords(stored: string): string {
  const error = parsed(stored);
  if (!error) return stored;
  if (typeof error.message === 'string' && typeof error.httpStatus === 'number') {
    const network = networkPart(error.network as Json | undefined);
    return network ? `${error.message} ${network}` : error.message;
  }
  const details = (error.error_data as Json | undefined)?.details;
  const said = typeof details === 'string' ? details : typeof error.message === 'string' ? error.message : '';
  const network = networkPart(error);
  if (!network) return said || stored;
  return said ? `${said} ${network}` : network;
}

/**
 * What a failure comes down to, the same for every message that failed so: the network's code and title
 * with what to do when the network said it, else the gateway's words with the user's number left out.
 */
export function failureReason(stored: string | null): string {
  if (stored === null) return 'no reason recorded';
  const error = parsed(stored);
  if (!error) return stored;
  const network = networkPart((error.network as Json | undefined) ?? error);
  if (network) return network;
  const said = typeof error.message === 'string' ? error.message : stored;
  return said.replace(/\+?\d{6,}/g, 'the user');
}
