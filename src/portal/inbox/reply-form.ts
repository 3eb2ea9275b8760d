/**
 * What an inbox reply form sent: its fields, and for the file form (multipart, docs/inbox.md) the file
 * chosen on the computer, uploaded for the conversation's number as `POST /api/v1/media/<phone>` does
 * (src/domain/outbound-media.ts) and named by its `mediaId`. The other forms are urlencoded, their token
 * checked by routes.ts; the multipart one's is checked before its file is read (../multipart-form.ts).
 */
import type { FastifyRequest } from 'fastify';
import { conversationOf } from '../../domain/inbox/inbox-service.ts';
import { uploadOutboundMedia } from '../../domain/outbound-media.ts';
import { OUTBOUND_MEDIA_MAX_BYTES } from '../../domain/outbound-media-kinds.ts';
import type { SessionContext } from '../../domain/ports/portal.ts';
import type { PortalDeps } from '../deps.ts';
import { readMultipartForm } from '../multipart-form.ts';

export async function readReplyForm(
  deps: PortalDeps,
  request: FastifyRequest,
  session: SessionContext,
  conversationId: string,
): Promise<{ body: unknown; mediaId?: string }> {
  if (!request.isMultipart()) return { body: request.body };
  const { values, file } = await readMultipartForm(
    request,
    session.csrfToken,
    'file',
    OUTBOUND_MEDIA_MAX_BYTES,
    async (bytes, chosen) => {
      const conversation = await conversationOf(deps.inbox, session.accountId, conversationId);
      const media = await uploadOutboundMedia(deps.uploads, session.accountId, {
        phone: `+${conversation.businessPhone}`,
        declaredType: chosen.mimeType,
        filename: chosen.filename || 'file',
        source: bytes,
      });
      return media.id;
    },
  );
  return { body: values, ...(file ? { mediaId: file } : {}) };
}
