/**
 * An AUTHENTICATION (one-time password) template (docs/cloud-api.md §4.2, §4.3). WhatsApp writes its texts:
 * the business chooses only whether the body adds the security recommendation, after how many minutes the
 * footer says the code expires, and its one OTP button: COPY_CODE (the user copies the code) or ONE_TAP
 * (WhatsApp hands the code to the business's Android app, named by package and signing key hash).
 * ZERO_TAP, which needs no tap at all, is not simulated: there is no app on a virtual phone to receive it.
 *
 * What is stored is what the Graph lists for such a template: a BODY with the fixed text and an example
 * code, a FOOTER saying when the code expires, and the OTP button as a URL button whose link carries the
 * code (`...&code=otp{{1}}`). The simulator writes the English texts whatever the template's language.
 */
import type { Json } from '../validate-fields.ts';
import { invalidField } from './errors.ts';
import { BUTTON_TYPES, OTP_TYPES, type TemplateButton, type TemplateContent } from './model.ts';
import { oneOf, requireArray, requireObject, requireText } from './read-fields.ts';

export const AUTH_LIMITS = {
  expiryMinutes: { min: 1, max: 90 },
  ttlSeconds: { min: 30, max: 900 },
  supportedApps: 5,
  packageName: 224,
  text: 25,
} as const;

const SECURITY_RECOMMENDATION = 'For your security, do not share this code.';
const EXAMPLE_CODE = '123456';
const OTP_LINK = 'https://www.whatsapp.com/otp/code/';

/** An Android application id: dot-separated parts, each starting with a letter. */
const PACKAGE_NAME = /^[a-zA-Z][a-zA-Z0-9_]*(\.[a-zA-Z][a-zA-Z0-9_]*)+$/;
/** The 11-character hash of the app's signing key that Android's SMS retriever uses. */
const SIGNATURE_HASH = /^[A-Za-z0-9+/=]{11}$/;

type App = { package_name: string; signature_hash: string };

/** Refuses every key of `input` but `type` and `allowed`, naming the first other one. */
function onlyKeys(input: Json, prefix: string, allowed: readonly string[], why: string): void {
  const extra = Object.keys(input).find((key) => key !== 'type' && !allowed.includes(key));
  if (extra) throw invalidField(`${prefix}.${extra}`, `is not allowed in an AUTHENTICATION template: ${why}`);
}

function wholeNumber(value: unknown, field: string, min: number, max: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw invalidField(field, `must be a whole number from ${min} to ${max} (got ${JSON.stringify(value)})`);
  }
  return value;
}

/** `message_send_ttl_seconds` of an authentication template: 30 seconds to 15 minutes. */
export function checkTtl(value: unknown): number {
  const { min, max } = AUTH_LIMITS.ttlSeconds;
  return wholeNumber(value, 'message_send_ttl_seconds', min, max);
}

function body(input: Json): { wire: Json; text: string } {
  onlyKeys(input, 'components.BODY', ['add_security_recommendation'], 'WhatsApp writes the body text');
  const add = input.add_security_recommendation;
  if (add !== undefined && typeof add !== 'boolean') {
    throw invalidField('components.BODY.add_security_recommendation', 'must be true or false');
  }
  const text = `*{{1}}* is your verification code.${add ? ` ${SECURITY_RECOMMENDATION}` : ''}`;
  const wire = {
    type: 'BODY',
    text,
    ...(add ? { add_security_recommendation: true } : {}),
    example: { body_text: [[EXAMPLE_CODE]] },
  };
  return { wire, text };
}

function footer(input: Json): { wire: Json; text: string; minutes: number } {
  onlyKeys(input, 'components.FOOTER', ['code_expiration_minutes'], 'WhatsApp writes the footer text');
  const field = 'components.FOOTER.code_expiration_minutes';
  if (input.code_expiration_minutes === undefined) throw invalidField(field, 'is required');
  const { min, max } = AUTH_LIMITS.expiryMinutes;
  const minutes = wholeNumber(input.code_expiration_minutes, field, min, max);
  const text = `This code expires in ${minutes} minute${minutes === 1 ? '' : 's'}.`;
  return { wire: { type: 'FOOTER', text, code_expiration_minutes: minutes }, text, minutes };
}

function app(raw: unknown, field: string): App {
  const input = requireObject(raw, field);
  const packageName = requireText(input, 'package_name', `${field}.package_name`, AUTH_LIMITS.packageName);
  if (!PACKAGE_NAME.test(packageName)) {
    throw invalidField(`${field}.package_name`, 'must be an Android package name such as com.example.shop');
  }
  const hash = input.signature_hash;
  if (typeof hash !== 'string' || !SIGNATURE_HASH.test(hash)) {
    throw invalidField(
      `${field}.signature_hash`,
      "must be the app's 11-character signing key hash (letters, digits, +, / and =)",
    );
  }
  return { package_name: packageName, signature_hash: hash };
}

/** The apps a ONE_TAP button fills: `supported_apps`, or the older `package_name` with `signature_hash`. */
function apps(input: Json, field: string): { wire: Json; first: App } {
  const older = input.package_name !== undefined || input.signature_hash !== undefined;
  if (older && input.supported_apps !== undefined) {
    throw invalidField(
      `${field}.supported_apps`,
      'and the older package_name with signature_hash are two forms of one field: give one of them',
    );
  }
  if (older) {
    const only = app(input, field);
    return { wire: only, first: only };
  }
  if (input.supported_apps === undefined) {
    throw invalidField(`${field}.supported_apps`, 'is required for a ONE_TAP button');
  }
  const list = requireArray(input.supported_apps, `${field}.supported_apps`);
  if (list.length === 0 || list.length > AUTH_LIMITS.supportedApps) {
    throw invalidField(
      `${field}.supported_apps`,
      `must name 1 to ${AUTH_LIMITS.supportedApps} apps (got ${list.length})`,
    );
  }
  const checked = list.map((raw, i) => app(raw, `${field}.supported_apps[${i}]`));
  return { wire: { supported_apps: checked }, first: checked[0] as App };
}

const ONE_TAP_KEYS = ['autofill_text', 'supported_apps', 'package_name', 'signature_hash'];

/** The OTP button, listed as the URL button that carries the code, and what a send and the phone need. */
function otpButton(raw: unknown, minutes: number | undefined): { wire: Json; button: TemplateButton } {
  const field = 'components.BUTTONS.buttons[0]';
  const input = requireObject(raw, field);
  const type = oneOf(input.type, BUTTON_TYPES, `${field}.type`);
  if (type !== 'OTP')
    throw invalidField(`${field}.type`, `must be OTP in an AUTHENTICATION template (got ${type})`);
  for (const key of ['url', 'example', 'phone_number']) {
    if (input[key] !== undefined) throw invalidField(`${field}.${key}`, 'is not for an OTP button');
  }
  const otpType = oneOf(input.otp_type, [...OTP_TYPES, 'ZERO_TAP'] as const, `${field}.otp_type`);
  if (otpType === 'ZERO_TAP') {
    throw invalidField(
      `${field}.otp_type`,
      'ZERO_TAP is not simulated: it needs an app on a real device; use COPY_CODE or ONE_TAP',
    );
  }
  const text =
    input.text === undefined ? 'Copy code' : requireText(input, 'text', `${field}.text`, AUTH_LIMITS.text);
  const expiry = minutes === undefined ? '' : `&code_expiration_minutes=${minutes}`;
  if (otpType === 'COPY_CODE') {
    const extra = ONE_TAP_KEYS.find((key) => input[key] !== undefined);
    if (extra) throw invalidField(`${field}.${extra}`, 'is only for a ONE_TAP button');
    const url = `${OTP_LINK}?otp_type=COPY_CODE${expiry}&code=otp{{1}}`;
    const wire = { type: 'URL', text, url, example: [url.replace('{{1}}', EXAMPLE_CODE)] };
    return { wire, button: { type: 'OTP', text, url, urlHasVariable: true, otp: { type: otpType } } };
  }
  const autofillText =
    input.autofill_text === undefined
      ? 'Autofill'
      : requireText(input, 'autofill_text', `${field}.autofill_text`, AUTH_LIMITS.text);
  const { wire: appsWire, first } = apps(input, field);
  const target = `package_name=${first.package_name}&signature_hash=${first.signature_hash}`;
  const url = `${OTP_LINK}?otp_type=ONE_TAP&${target}${expiry}&code=otp{{1}}`;
  const example = [url.replace('{{1}}', EXAMPLE_CODE)];
  const wire = { type: 'URL', text, autofill_text: autofillText, url, example, ...appsWire };
  const otp = { type: otpType, autofillText, packageName: first.package_name };
  return { wire, button: { type: 'OTP', text, url, urlHasVariable: true, otp } };
}

function buttons(input: Json, minutes: number | undefined): { wire: Json; button: TemplateButton } {
  const list = requireArray(input.buttons, 'components.BUTTONS.buttons');
  if (list.length !== 1) {
    throw invalidField('components.BUTTONS.buttons', `must hold exactly one OTP button (got ${list.length})`);
  }
  const { wire, button } = otpButton(list[0], minutes);
  return { wire: { type: 'BUTTONS', buttons: [wire] }, button };
}

/** The components of an AUTHENTICATION template, by type with where each was (`components[i]`). */
export function authenticationContent(parts: Map<string, { input: Json; at: string }>): TemplateContent {
  for (const type of ['HEADER', 'CAROUSEL']) {
    const part = parts.get(type);
    if (part) {
      throw invalidField(
        `${part.at}.type`,
        `${type} is not allowed in an AUTHENTICATION template: it has a BODY, an optional FOOTER and one OTP button`,
      );
    }
  }
  const bodyPart = parts.get('BODY');
  const buttonsPart = parts.get('BUTTONS');
  if (!bodyPart) throw invalidField('components', 'must include a BODY component');
  const checkedBody = body(bodyPart.input);
  if (!buttonsPart) throw invalidField('components', 'must include a BUTTONS component with one OTP button');
  const footerPart = parts.get('FOOTER');
  const checkedFooter = footerPart ? footer(footerPart.input) : undefined;
  const checkedButtons = buttons(buttonsPart.input, checkedFooter?.minutes);
  return {
    components: [checkedBody.wire, ...(checkedFooter ? [checkedFooter.wire] : []), checkedButtons.wire],
    body: { text: checkedBody.text, variables: 1 },
    ...(checkedFooter ? { footer: checkedFooter.text } : {}),
    buttons: [checkedButtons.button],
  };
}
