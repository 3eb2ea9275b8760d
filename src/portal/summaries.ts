/** One line a person can scan for a message: its text, caption, template name or kind. */
type Json = Record<string, unknown>;
const obj = (v: unknown): Json => (typeof v === 'object' && v !== null ? (v as Json) : {});
const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

const MAX = 90;

export function messageSummary(type: string, json: string): string {
  let message: Json;
  try {
    message = obj(JSON.parse(json));
  } catch {
    return `[${type}]`;
  }
  const kind = str(message.type) ?? type;
  const part = obj(message[kind]);
  const interactive = obj(part.body);
  const text =
    str(part.body) ??
    str(part.caption) ??
    str(interactive.text) ??
    (kind === 'template' ? (str(part.name) ? `template ${str(part.name)}` : undefined) : undefined) ??
    str(part.name) ??
    str(part.address) ??
    str(obj(part.button_reply).title) ??
    str(obj(part.list_reply).title) ??
    str(part.text);
  const line = text ?? `[${kind}]`;
  return line.length > MAX ? `${line.slice(0, MAX - 1)}…` : line;
}
