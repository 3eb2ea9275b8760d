/**
 * Uploading media to send by id, and deleting it (docs/cloud-api.md §5.1, §5.3), as management calls: the
 * same exchange, failure classification and safe retries as templates and flows (graph-call.ts). The file
 * goes out as a multipart part read from disk while it is sent (`openAsBlob`), never whole in memory.
 */
import { openAsBlob } from 'node:fs';
import { FormData } from 'undici';
import type { CallResult, FlowCallResult, NumberCredentials } from '../domain/ports/network.ts';
import { type GraphCallOptions, graphCall } from './graph-call.ts';
import { unexpectedAnswer } from './graph-errors.ts';

/** An upload answered without the media's id: nothing a send could name. */
const NO_MEDIA_ID = unexpectedAnswer('permanent', 200, 'the uploaded media has no id');

export function cloudMediaUploadCalls(options: GraphCallOptions) {
  return {
    async uploadMedia(
      credentials: NumberCredentials,
      file: { path: string; mimeType: string; filename: string },
    ): Promise<FlowCallResult<{ mediaId: string }>> {
      const form = new FormData();
      form.append('messaging_product', 'whatsapp');
      form.append('type', file.mimeType);
      form.append('file', await openAsBlob(file.path, { type: file.mimeType }), file.filename);
      const path = `${encodeURIComponent(credentials.phoneNumberId)}/media`;
      const result = await graphCall(options, 'POST', path, credentials.accessToken, { form });
      if (!result.ok) return result;
      const mediaId = result.value.id;
      if (typeof mediaId !== 'string' || mediaId === '') return { ok: false, failure: NO_MEDIA_ID };
      return { ok: true, value: { mediaId } };
    },

    async deleteMedia(credentials: NumberCredentials, mediaId: string): Promise<CallResult> {
      const result = await graphCall(options, 'DELETE', encodeURIComponent(mediaId), credentials.accessToken);
      return result.ok ? { ok: true } : result;
    },
  };
}
