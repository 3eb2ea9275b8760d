/**
 * The file of an inbox reply's file form (docs/inbox.md): chosen on the computer, uploaded for the
 * conversation's number as `POST /api/v1/media/<phone>` does (src/domain/outbound-media.ts) and named by its
 * `mediaId`. The form is multipart; its token is checked before the file is read (../multipart-form.ts).
 */
import { uploadOutboundMedia } from '../../domain/outbound-media.ts';
import { OUTBOUND_MEDIA_MAX_BYTES } from '../../domain/outbound-media-kinds.ts';
import type { Conversation } from '../../domain/ports/inbox.ts';
import type { PortalDeps } from '../deps.ts';
import type { FormFile } from '../multipart-form.ts';

export function replyFile(deps: PortalDeps, accountId: string, conversation: Conversation): FormFile {
  return {
    field: 'file',
    maxBytes: OUTBOUND_MEDIA_MAX_BYTES,
    async store(bytes, chosen) {
      const media = await uploadOutboundMedia(deps.uploads, accountId, {
        phone: `+${conversation.businessPhone}`,
        declaredType: chosen.mimeType,
        filename: chosen.filename || 'file',
        source: bytes,
      });
      return media.id;
    },
  };
}
