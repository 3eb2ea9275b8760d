/**
 * A template message as the virtual phone shows it: the approved template with a send's parameters filled
 * in (header, body, footer, buttons with their URL, number, code or payload, and a carousel's cards). It is
 * kept with the message (phone-book.ts `template`) and drawn by the phone page (phone/template-view.js);
 * render.ts makes the phone's `rendered` text from it. Keys are snake_case, as in the Graph bodies the
 * message carries beside it.
 */
import type { TemplateButton, TemplateContent } from './model.ts';
import { fillVariables } from './variables.ts';

export type FilledHeader =
  | { type: 'text'; text: string }
  | { type: 'image' | 'video' | 'document'; link?: string; id?: string; filename?: string }
  | { type: 'location'; latitude: number; longitude: number; name?: string; address?: string };

/** A button, `index` its position in the template (or card): what a tap sends back names it. */
export type FilledButton =
  | { type: 'quick_reply'; index: number; text: string; payload: string }
  | { type: 'url'; index: number; text: string; url: string }
  | { type: 'phone_number'; index: number; text: string; phone_number: string }
  | { type: 'copy_code'; index: number; text: string; code: string }
  | {
      type: 'otp';
      index: number;
      otp_type: 'COPY_CODE' | 'ONE_TAP';
      text: string;
      code: string;
      autofill_text?: string;
      package_name?: string;
    };

export interface FilledCard {
  /** The card's position, 0 first (a send's `card_index`). */
  index: number;
  header: FilledHeader;
  body?: string;
  buttons: FilledButton[];
}

export interface FilledTemplate {
  header?: FilledHeader;
  body: string;
  footer?: string;
  buttons: FilledButton[];
  cards?: FilledCard[];
}

/** What a send gave one set of buttons: URL suffixes and codes, and quick-reply payloads, by index. */
export interface ButtonParameters {
  values: Map<number, string>;
  payloads: Map<number, string>;
}

/** What a send gave the template, checked against it (send-parameters.ts). */
export interface FilledParameters extends ButtonParameters {
  header?: FilledHeader;
  body: string[];
  cards?: ({ header: FilledHeader; body: string[] } & ButtonParameters)[];
}

function filledButton(button: TemplateButton, index: number, given: ButtonParameters): FilledButton {
  const value = given.values.get(index) ?? '';
  const { text } = button;
  switch (button.type) {
    case 'QUICK_REPLY':
      // Without a payload of the send's, the tap carries the button's text (docs/cloud-api.md §3.4).
      return { type: 'quick_reply', index, text, payload: given.payloads.get(index) ?? text };
    case 'URL': {
      const url = button.urlHasVariable ? fillVariables(button.url ?? '', [value]) : (button.url ?? '');
      return { type: 'url', index, text, url };
    }
    case 'PHONE_NUMBER':
      return { type: 'phone_number', index, text, phone_number: `+${button.phoneNumber}` };
    case 'COPY_CODE':
      return { type: 'copy_code', index, text, code: value };
    case 'OTP': {
      const otp = button.otp ?? { type: 'COPY_CODE' };
      const oneTap =
        otp.type === 'ONE_TAP'
          ? { autofill_text: otp.autofillText ?? 'Autofill', package_name: otp.packageName ?? '' }
          : {};
      return { type: 'otp', index, otp_type: otp.type, text, code: value, ...oneTap };
    }
  }
}

export function filledTemplate(content: TemplateContent, filled: FilledParameters): FilledTemplate {
  const media = content.carousel?.format === 'VIDEO' ? 'video' : 'image';
  const cards = content.carousel?.cards.map((card, index): FilledCard => {
    const given = filled.cards?.[index] ?? {
      header: { type: media },
      body: [],
      values: new Map<number, string>(),
      payloads: new Map<number, string>(),
    };
    return {
      index,
      header: given.header,
      ...(card.body ? { body: fillVariables(card.body.text, given.body) } : {}),
      buttons: card.buttons.map((button, i) => filledButton(button, i, given)),
    };
  });
  return {
    ...(filled.header ? { header: filled.header } : {}),
    body: fillVariables(content.body.text, filled.body),
    ...(content.footer ? { footer: content.footer } : {}),
    buttons: content.buttons.map((button, i) => filledButton(button, i, filled)),
    ...(cards ? { cards } : {}),
  };
}
