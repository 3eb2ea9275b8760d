/**
 * The media of a template's header or of a carousel card's (docs/sending.md, "Template"): a link the
 * network fetches, or an upload of the sending number (`upl_…`, docs/sending.md#upload-media-to-send-by-id),
 * which the send resolves to the network's media id before the message is built
 * (templates/resolve-template-send.ts).
 */
import type { ResolvedTemplate } from './send-operation.ts';

export type MediaOf = { mediaUrl: string; mediaId?: never } | { mediaId: string; mediaUrl?: never };

/** The network's media object of a header: by the network's id of an upload, or by link. */
export function cloudMedia(media: MediaOf, template: ResolvedTemplate): { id: string } | { link: string } {
  if (media.mediaId === undefined) return { link: media.mediaUrl };
  const id = template.media?.[media.mediaId];
  // The pipeline resolves every upload a template send names before building it; a miss is a bug.
  if (id === undefined) throw new Error(`the upload ${media.mediaId} of a template send was not resolved`);
  return { id };
}
