/**
 * An interactive call-to-action URL button: a text, one button with its own label, and the https:// link
 * it opens, with an optional text header and footer (docs/cloud-api.md §1.3: `cta_url`; label up to 20
 * characters, body 1,024, header and footer 60). The phone shows the label, not the link.
 */
import { Type } from 'typebox';
import { type CommonFields, commonFields, ok, refuse, type SendOperation, text } from './send-operation.ts';

type Body = CommonFields & {
  body: string;
  buttonText: string;
  url: string;
  header?: string;
  footer?: string;
};
export interface CtaUrlContent {
  body: string;
  buttonText: string;
  url: string;
  header?: string;
  footer?: string;
}

const bodySchema = Type.Object(
  {
    ...commonFields,
    body: text(1, 1024, { description: 'the message text above the button' }),
    buttonText: text(1, 20, { description: 'the label on the button' }),
    url: Type.String({ minLength: 1, maxLength: 2000, description: 'the https:// link the button opens' }),
    header: Type.Optional(text(1, 60)),
    footer: Type.Optional(text(1, 60)),
  },
  { additionalProperties: false },
);

function isHttpsUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'https:' && url.hostname !== '';
  } catch {
    return false;
  }
}

export const sendCtaUrl: SendOperation<Body, CtaUrlContent, typeof bodySchema> = {
  kind: 'cta_url',
  summary: 'Send a message with a button that opens a link',
  bodySchema,
  normalize(body) {
    if (!isHttpsUrl(body.url)) return refuse('url', '`url` must be an https:// link');
    const { body: message, buttonText, url, header, footer } = body;
    return ok({
      body: message,
      buttonText,
      url,
      ...(header === undefined ? {} : { header }),
      ...(footer === undefined ? {} : { footer }),
    });
  },
  toCloud: ({ body, buttonText, url, header, footer }) => ({
    type: 'interactive',
    interactive: {
      type: 'cta_url',
      ...(header === undefined ? {} : { header: { type: 'text', text: header } }),
      body: { text: body },
      ...(footer === undefined ? {} : { footer: { text: footer } }),
      action: { name: 'cta_url', parameters: { display_text: buttonText, url } },
    },
  }),
};
