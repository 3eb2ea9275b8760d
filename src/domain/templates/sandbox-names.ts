/**
 * On the shared sandbox number every account's templates live in one WhatsApp Business Account, where a
 * name is unique per language: the network knows each account's template under the name plus a short tag
 * of the account (docs/adr/0008-sandbox-template-names.md). Clients never see the tag: what the network
 * says back (its errors, the message content the log shows) has it taken out again.
 */
import { createHash } from 'node:crypto';

const TAG_DIGITS = 8;
/** What the tag adds to a name: `_` and the digits. */
export const SANDBOX_TAG_LENGTH = TAG_DIGITS + 1;

/** `_` and 8 hex digits of the SHA-256 of the account id. */
export function sandboxTag(accountId: string): string {
  return `_${createHash('sha256').update(accountId).digest('hex').slice(0, TAG_DIGITS)}`;
}

/** The network's name of the account's sandbox template `name`. */
export function sandboxNetworkName(accountId: string, name: string): string {
  return `${name}${sandboxTag(accountId)}`;
}

/** `text` with the account's sandbox template names back to the names the account gave them. */
export function withOwnTemplateNames(text: string, accountId: string): string {
  return text.replaceAll(sandboxTag(accountId), '');
}
