/** Flow helpers for end-to-end tests: multipart create/update over real HTTP, and the example Flow JSON. */
import { readFileSync } from 'node:fs';
import type { ApiResponse, TestGateway } from './gateway.ts';

export const FLOWS = '/api/v1/msg/manage/flow';

/** The two-screen example the docs use: SIGN_UP (first_name, email) → PREFERENCES (plan, marketing). */
export const SIGN_UP_FLOW = readFileSync(
  new URL('../../examples/flows/sign-up.json', import.meta.url),
  'utf8',
);

export interface FlowFormParts {
  phoneNumber?: string;
  name?: string;
  categories?: string;
  /** File content and name (default `flow.json`). */
  file?: { content: string | Uint8Array; filename?: string };
  /** Extra parts, e.g. an unknown one. */
  extra?: Record<string, string>;
}

export function flowForm(parts: FlowFormParts): FormData {
  const form = new FormData();
  for (const key of ['phoneNumber', 'name', 'categories'] as const) {
    if (parts[key] !== undefined) form.append(key, parts[key]);
  }
  for (const [key, value] of Object.entries(parts.extra ?? {})) form.append(key, value);
  if (parts.file) {
    const content = parts.file.content;
    const bytes = typeof content === 'string' ? content : new Uint8Array(content);
    const blob = new Blob([bytes], { type: 'application/json' });
    form.append('file', blob, parts.file.filename ?? 'flow.json');
  }
  return form;
}

/** A multipart request to the flow API; the body parsed as JSON. */
export async function flowRequest(
  t: TestGateway,
  method: 'POST' | 'PUT',
  path: string,
  key: string,
  parts: FlowFormParts,
): Promise<ApiResponse> {
  const response = await fetch(t.url + path, { method, headers: { apiKey: key }, body: flowForm(parts) });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {}
  return { status: response.status, headers: response.headers, body };
}

export async function createSignUpFlow(t: TestGateway, key: string, phoneNumber: string, name = 'Sign up') {
  const r = await flowRequest(t, 'POST', FLOWS, key, {
    phoneNumber,
    name,
    categories: 'SIGN_UP',
    file: { content: SIGN_UP_FLOW, filename: 'sign-up.json' },
  });
  if (r.status !== 200) throw new Error(`flow create failed: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.data as { id: number; waFlowId: string; status: string; updatedAt: string };
}

/** The preview link rewritten onto the test gateway's real address (PUBLIC_URL is not known before listen). */
export function onGateway(t: TestGateway, url: string): string {
  const u = new URL(url);
  return t.url + u.pathname + u.search;
}
