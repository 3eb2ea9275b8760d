/**
 * What a person would see on the phone for a received Cloud API message, as plain text: the `rendered`
 * field of `GET /users/:phone/messages`. Buttons are shown in brackets, list rows as bullets.
 */
// biome-ignore lint/suspicious/noExplicitAny: reads bodies validate-message.ts has already checked.
type Json = Record<string, any>;

function header(h: Json | undefined): string | undefined {
  if (!h) return undefined;
  if (h.type === 'text') return `*${h.text}*`;
  const media = h[h.type] as Json | undefined;
  return `[${h.type}: ${media?.link ?? media?.id}]`;
}

function interactive(i: Json): string {
  const lines = [header(i.header), i.body?.text, i.footer?.text ? `_${i.footer.text}_` : undefined];
  const action = (i.action ?? {}) as Json;
  switch (i.type) {
    case 'button':
      lines.push((action.buttons as Json[]).map((b) => `[${b.reply?.title}]`).join(' '));
      break;
    case 'list':
      lines.push(`[☰ ${action.button}]`);
      for (const section of action.sections as Json[]) {
        if (section.title) lines.push(`${section.title}:`);
        for (const row of section.rows as Json[]) {
          lines.push(`  • ${row.title}${row.description ? ` — ${row.description}` : ''}`);
        }
      }
      break;
    case 'flow':
      lines.push(`[${action.parameters?.flow_cta}]`);
      break;
    case 'location_request_message':
      lines.push('[📍 Send location]');
      break;
    case 'cta_url':
      lines.push(`[${action.parameters?.display_text}] ${action.parameters?.url}`);
      break;
  }
  return lines.filter(Boolean).join('\n');
}

function media(type: string, m: Json): string {
  const label = type === 'document' && m.filename ? `document: ${m.filename}` : type;
  return [`[${label}] ${m.link ?? `media ${m.id}`}`, m.caption].filter(Boolean).join('\n');
}

/** `message` is the Cloud API message without envelope keys: `{type, [type]: {...}}`. */
export function renderMessage(message: Json): string {
  const type = message.type as string;
  const content = message[type];
  switch (type) {
    case 'text':
      return content.body;
    case 'image':
    case 'video':
    case 'audio':
    case 'document':
    case 'sticker':
      return media(type, content);
    case 'location': {
      const place = [content.name, content.address].filter(Boolean).join(', ');
      return `📍 ${place ? `${place} ` : ''}(${content.latitude}, ${content.longitude})`;
    }
    case 'contacts':
      return (content as Json[])
        .map((card) => {
          const phones = ((card.phones ?? []) as Json[]).map(
            (p) => `${p.phone}${p.type ? ` (${p.type})` : ''}`,
          );
          return `👤 ${card.name?.formatted_name}${phones.length ? `: ${phones.join(', ')}` : ''}`;
        })
        .join('\n');
    case 'interactive':
      return interactive(content);
    case 'reaction':
      return content.emoji ? `${content.emoji} (reaction)` : '(reaction removed)';
    case 'template':
      return `[template ${content.name}]`;
    default:
      return `[${type}]`;
  }
}

/** What the user's own message shows on their phone: `content` is the inbound `messages[]` item's content. */
export function renderUserMessage(content: Json): string {
  const type = content.type as string;
  if (type === 'interactive') {
    const i = content.interactive as Json;
    if (i.type === 'button_reply') return i.button_reply.title;
    if (i.type === 'list_reply') return i.list_reply.title;
    if (i.type === 'nfm_reply') return `✅ ${i.nfm_reply.body}`;
    return `[${i.type}]`;
  }
  if (type === 'location' || type === 'text' || type === 'reaction') return renderMessage(content);
  if (type === 'button') return String((content.button as Json).text);
  const media = content[type] as Json | undefined;
  const label = type === 'document' && media?.filename ? `document: ${media.filename}` : type;
  return [`[${label}]`, media?.caption].filter(Boolean).join('\n');
}
