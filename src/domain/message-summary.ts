/**
 * One line a person can scan for a message, received or sent: its text, caption, template name, or what
 * it is in words (a location, a contact card, a flow's answers, a reaction). Used by the message log, its
 * CSV export and the inbox's conversation list.
 */
type Json = Record<string, unknown>;
const obj = (v: unknown): Json => (typeof v === 'object' && v !== null ? (v as Json) : {});
const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

const MAX = 90;

/** What an interactive message says: a reply's title, a flow's completion, or its body text. */
function interactiveLine(part: Json): string | undefined {
  if (part.type === 'nfm_reply') return 'Flow answers';
  return str(obj(part.button_reply).title) ?? str(obj(part.list_reply).title) ?? str(obj(part.body).text);
}

function contactsLine(value: unknown): string | undefined {
  const first = Array.isArray(value) ? obj(value[0]) : {};
  const name = str(obj(first.name).formatted_name);
  return name ? `Contact card: ${name}` : undefined;
}

function lineOf(kind: string, message: Json): string | undefined {
  const part = obj(message[kind]);
  switch (kind) {
    case 'interactive':
      return interactiveLine(part);
    case 'location': {
      // Said as a location, as a contact card is: a place's name alone reads as something the user wrote.
      const place = str(part.name) ?? str(part.address);
      return place ? `Location: ${place}` : 'Location';
    }
    case 'contacts':
      return contactsLine(message.contacts) ?? 'Contact card';
    case 'reaction':
      return str(part.emoji) ? `Reacted ${str(part.emoji)}` : 'Removed a reaction';
    case 'template':
      return str(part.name) ? `template ${str(part.name)}` : undefined;
    default:
      return str(part.body) ?? str(part.caption) ?? str(part.text) ?? str(part.name);
  }
}

export function messageSummary(type: string, json: string): string {
  let message: Json;
  try {
    message = obj(JSON.parse(json));
  } catch {
    return `[${type}]`;
  }
  const kind = str(message.type) ?? type;
  const line = lineOf(kind, message) ?? `[${kind}]`;
  return line.length > MAX ? `${line.slice(0, MAX - 1)}…` : line;
}
