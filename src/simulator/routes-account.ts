/**
 * The account reads and settings of the simulated Graph that clients call beside sending (docs/cloud-api.md
 * §9): a number's business profile (read and update), a WhatsApp Business Account's phone numbers, and its
 * subscribed apps (subscribe, list, unsubscribe). Each number is its own WABA here, with one number: itself.
 * Profiles and subscriptions are kept in the state journal like the rest of the network.
 */
import type { FastifyInstance } from 'fastify';
import { type GraphError, graphError, isGraphError, sendGraphError } from './graph-errors.ts';
import { fieldOf } from './request-fields.ts';
import { graphErrorHandler, graphPaths, numberInPath } from './routes-graph.ts';
import type { StateJournal } from './state/journal.ts';
import { isObject, type Json } from './validate-fields.ts';

/** Meta's business categories (`vertical`). */
const VERTICALS = [
  'UNDEFINED',
  'OTHER',
  'AUTO',
  'BEAUTY',
  'APPAREL',
  'EDU',
  'ENTERTAIN',
  'EVENT_PLAN',
  'FINANCE',
  'GROCERY',
  'GOVT',
  'HOTEL',
  'HEALTH',
  'NONPROFIT',
  'PROF_SERVICES',
  'RETAIL',
  'TRAVEL',
  'RESTAURANT',
  'NOT_A_BIZ',
];

/** The text fields of a profile and their longest values (Meta's limits). */
const TEXT_LIMITS: Record<string, number> = { about: 139, address: 256, description: 512, email: 128 };

export interface BusinessProfile {
  about: string;
  address: string;
  description: string;
  email: string;
  vertical: string;
  websites: string[];
  profile_picture_url: string;
}

/** The journal's kinds, keyed by the number: its profile, and whether an app subscribed to its WABA. */
export const PROFILE_KIND = 'business-profile';
export const SUBSCRIBED_KIND = 'subscribed-app';

/** Business profiles and app subscriptions per number. */
export class AccountSettings {
  readonly #profiles = new Map<string, BusinessProfile>();
  readonly #subscribed = new Set<string>();
  readonly #journal: StateJournal;

  constructor(journal: StateJournal) {
    this.#journal = journal;
  }

  restore(profiles: { key: string; value: BusinessProfile }[], subscribed: { key: string }[]): void {
    for (const { key, value } of profiles) this.#profiles.set(key, value);
    for (const { key } of subscribed) this.#subscribed.add(key);
  }

  profile(business: string): BusinessProfile {
    return (
      this.#profiles.get(business) ?? {
        about: 'Simulated Business',
        address: '',
        description: '',
        email: '',
        vertical: 'UNDEFINED',
        websites: [],
        profile_picture_url: '',
      }
    );
  }

  updateProfile(business: string, profile: BusinessProfile): void {
    this.#profiles.set(business, profile);
    this.#journal.put(PROFILE_KIND, business, profile);
  }

  subscribed(business: string): boolean {
    return this.#subscribed.has(business);
  }

  setSubscribed(business: string, on: boolean): void {
    if (on) {
      this.#subscribed.add(business);
      this.#journal.put(SUBSCRIBED_KIND, business, true);
    } else {
      this.#subscribed.delete(business);
      this.#journal.remove(SUBSCRIBED_KIND, business);
    }
  }
}

export interface AccountRouteDeps {
  accessToken: string;
  settings: AccountSettings;
}

/** The number (or WABA: the same digits) a path names, after Graph's checks. */

/** A profile update: only the fields Meta lets a business set, each within its limit. */
function updatedProfile(current: BusinessProfile, body: Json): BusinessProfile | GraphError {
  if (body.messaging_product !== 'whatsapp')
    return graphError(100, 'The parameter messaging_product is required.');
  const next: BusinessProfile = { ...current };
  for (const [field, max] of Object.entries(TEXT_LIMITS)) {
    const value = body[field];
    if (value === undefined) continue;
    if (typeof value !== 'string' || value.length > max)
      return graphError(100, `Parameter '${field}' must be a string of at most ${max} characters.`);
    Object.assign(next, { [field]: value });
  }
  if (body.vertical !== undefined) {
    if (typeof body.vertical !== 'string' || !VERTICALS.includes(body.vertical))
      return graphError(100, `Parameter 'vertical' must be one of ${VERTICALS.join(', ')}.`);
    next.vertical = body.vertical;
  }
  if (body.websites !== undefined) {
    const websites = body.websites;
    const ok =
      Array.isArray(websites) &&
      websites.length <= 2 &&
      websites.every((w) => typeof w === 'string' && w.length <= 256 && /^https?:\/\/\S+$/.test(w));
    if (!ok)
      return graphError(100, "Parameter 'websites' must list at most 2 http(s) URLs of 256 characters.");
    next.websites = websites as string[];
  }
  return next;
}

function registerProfile(app: FastifyInstance, deps: AccountRouteDeps): void {
  for (const url of graphPaths('/:id/whatsapp_business_profile')) {
    app.get(url, { errorHandler: graphErrorHandler }, async (request, reply) => {
      const number = numberInPath(request, deps.accessToken, 'get');
      if (isGraphError(number)) return sendGraphError(reply, number);
      const profile: Json = { ...deps.settings.profile(number), messaging_product: 'whatsapp' };
      const fields = fieldOf(request.query, 'fields');
      const wanted = typeof fields === 'string' ? fields.split(',').map((f) => f.trim()) : undefined;
      const shown = wanted
        ? Object.fromEntries(
            Object.entries(profile).filter(([k]) => wanted.includes(k) || k === 'messaging_product'),
          )
        : profile;
      return { data: [shown] };
    });
    app.post(url, { errorHandler: graphErrorHandler }, async (request, reply) => {
      const number = numberInPath(request, deps.accessToken, 'post');
      if (isGraphError(number)) return sendGraphError(reply, number);
      const next = updatedProfile(deps.settings.profile(number), isObject(request.body) ? request.body : {});
      if (isGraphError(next)) return sendGraphError(reply, next);
      deps.settings.updateProfile(number, next);
      return { success: true };
    });
  }
}

function registerWaba(app: FastifyInstance, deps: AccountRouteDeps): void {
  for (const url of graphPaths('/:id/phone_numbers')) {
    app.get(url, { errorHandler: graphErrorHandler }, async (request, reply) => {
      const waba = numberInPath(request, deps.accessToken, 'get');
      if (isGraphError(waba)) return sendGraphError(reply, waba);
      const number = {
        verified_name: 'Simulated Business',
        display_phone_number: waba,
        id: waba,
        quality_rating: 'GREEN',
        code_verification_status: 'VERIFIED',
        platform_type: 'CLOUD_API',
        throughput: { level: 'STANDARD' },
      };
      return { data: [number], paging: { cursors: { before: '', after: '' } } };
    });
  }
  for (const url of graphPaths('/:id/subscribed_apps')) {
    app.get(url, { errorHandler: graphErrorHandler }, async (request, reply) => {
      const waba = numberInPath(request, deps.accessToken, 'get');
      if (isGraphError(waba)) return sendGraphError(reply, waba);
      const app = {
        id: '100000000000001',
        link: 'https://www.facebook.com/games/?app_id=100000000000001',
        name: 'Switchboard',
      };
      return { data: deps.settings.subscribed(waba) ? [{ whatsapp_business_api_data: app }] : [] };
    });
    for (const [method, on] of [
      ['post', true],
      ['delete', false],
    ] as const) {
      app[method](url, { errorHandler: graphErrorHandler }, async (request, reply) => {
        const waba = numberInPath(request, deps.accessToken, 'post');
        if (isGraphError(waba)) return sendGraphError(reply, waba);
        deps.settings.setSubscribed(waba, on);
        return { success: true };
      });
    }
  }
}

export function registerAccountRoutes(app: FastifyInstance, deps: AccountRouteDeps): void {
  registerProfile(app, deps);
  registerWaba(app, deps);
}
