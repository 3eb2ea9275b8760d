/**
 * A typed client of the Switchboard API: openapi-fetch over the types generated from the document the
 * gateway serves (schema.d.ts, `npm run client:generate` at the repository's root). Every path, body and
 * answer is checked by the TypeScript compiler against that document.
 *
 * ```ts
 * const api = switchboardClient({ baseUrl: 'http://localhost:3000', apiKey: process.env.KEY! });
 * const { data, error } = await api.POST('/api/v1/msg/message/text', {
 *   body: { messageId: 'order-42', from: '+14155550100', to: '+254712345678', message: 'Shipped' },
 * });
 * ```
 */
import createClient, { type Client, type ClientOptions } from 'openapi-fetch';
import type { paths } from './schema.d.ts';

export type { components, operations, paths } from './schema.d.ts';

export interface SwitchboardClientOptions extends Omit<ClientOptions, 'baseUrl'> {
  /** The gateway, e.g. `http://localhost:3000` (no `/api/v1`: the paths carry it). */
  baseUrl: string;
  /** One of the account's API keys, sent as the `apiKey` header of every request. */
  apiKey?: string;
}

export function switchboardClient(options: SwitchboardClientOptions): Client<paths> {
  const { apiKey, ...rest } = options;
  return createClient<paths>({
    ...rest,
    headers: { ...(apiKey ? { apiKey } : {}), ...((rest.headers as Record<string, string>) ?? {}) },
  });
}

/**
 * The `bodySerializer` of the multipart operations (file uploads, flows): each part of the typed body as a
 * form part; a Blob part goes as a file named `filename` (or `file`).
 *
 * ```ts
 * await api.POST('/api/v1/media/{phone}', {
 *   params: { path: { phone: '+14155550100' } },
 *   body: { file: new Blob([bytes], { type: 'application/pdf' }) },
 *   bodySerializer: formData({ filename: 'menu.pdf' }),
 * });
 * ```
 */
export function formData(options: { filename?: string } = {}) {
  return (body: Record<string, unknown>): FormData => {
    const form = new FormData();
    for (const [name, value] of Object.entries(body)) {
      if (value === undefined) continue;
      if (value instanceof Blob) form.append(name, value, options.filename ?? name);
      else form.append(name, String(value));
    }
    return form;
  };
}
