/**
 * The template management calls of the Cloud API connector (docs/cloud-api.md §4.1): create in the WhatsApp
 * Business Account, edit and delete. Listing is the gateway's own (it records every template and learns
 * each review from the network's webhooks), so the network's list endpoint is not needed.
 */

import type { NetworkConnector, TemplateSubmission } from '../domain/ports/network.ts';
import { type GraphCallOptions, type GraphResult, graphCall } from './graph-call.ts';
import { unexpectedAnswer } from './graph-errors.ts';

const CATEGORIES: ReadonlySet<string> = new Set(['MARKETING', 'UTILITY', 'AUTHENTICATION']);

type TemplateCalls = Pick<NetworkConnector, 'createTemplate' | 'editTemplate' | 'deleteTemplate'>;

const done = (result: GraphResult<unknown>): GraphResult<void> =>
  result.ok ? { ok: true, value: undefined } : result;

export function cloudTemplateCalls(options: GraphCallOptions): TemplateCalls {
  return {
    async createTemplate(account, template: TemplateSubmission) {
      const result = await graphCall(
        options,
        'POST',
        `${encodeURIComponent(account.wabaId)}/message_templates`,
        account.accessToken,
        { json: { ...template, parameter_format: 'POSITIONAL' } },
      );
      if (!result.ok) return result;
      const id = result.value.id;
      const status = result.value.status;
      if ((typeof id !== 'string' && typeof id !== 'number') || typeof status !== 'string') {
        const details = JSON.stringify(result.value).slice(0, 200);
        return { ok: false, failure: unexpectedAnswer('permanent', 200, details) };
      }
      // Meta may file a template under another category than asked (a "utility" one that reads as
      // marketing is created MARKETING): its answer says which, and that is the template's category.
      const category = CATEGORIES.has(String(result.value.category)) ? String(result.value.category) : null;
      return { ok: true, value: { id: String(id), status, category } };
    },

    async editTemplate(accessToken, templateId, changes) {
      return done(
        await graphCall(options, 'POST', encodeURIComponent(templateId), accessToken, { json: changes }),
      );
    },

    async deleteTemplate(account, name, templateId) {
      const query = new URLSearchParams({ name, ...(templateId ? { hsm_id: templateId } : {}) });
      return done(
        await graphCall(
          options,
          'DELETE',
          `${encodeURIComponent(account.wabaId)}/message_templates?${query}`,
          account.accessToken,
        ),
      );
    },
  };
}
