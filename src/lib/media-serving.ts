/**
 * How a stored file is served from the gateway's own origin, where the portal's signed-in pages live too.
 * Files people sent are content, never code (docs/adr/0016-safe-media.md): whatever type the network
 * reported, nothing in the answer may run as script or style on this origin:
 * - `X-Content-Type-Options: nosniff` and a sandboxing Content-Security-Policy on every answer, so even a
 *   file a browser renders gets an opaque origin, no script and no requests;
 * - only raster images, audio and plain video are shown in the browser (`inline`); every other type
 *   (HTML, SVG, PDF, XML, anything unknown) is a download (`attachment`);
 * - the type is sent normalised: a malformed one becomes `application/octet-stream`, and so does a type a
 *   browser would load as a script or a style sheet, so no file can serve as one even to a page of this
 *   origin that referred to it.
 */

export const MEDIA_SECURITY_HEADERS = {
  'x-content-type-options': 'nosniff',
  // Images and video shown by the browser itself need their own URL (img-src, media-src); `sandbox`
  // without `allow-scripts` forbids script and gives the document an opaque origin.
  'content-security-policy':
    "default-src 'none'; img-src 'self'; media-src 'self'; style-src 'unsafe-inline'; sandbox",
} as const;

const FALLBACK_TYPE = 'application/octet-stream';

/** Types a browser displays without running anything. SVG is not one: it is a document that can script. */
const INLINE_TYPES = new Set([
  'image/jpeg',
  'image/png',
  'image/webp',
  'image/gif',
  'video/mp4',
  'video/3gpp',
]);

/** A media type's syntax (RFC 6838 names, then `; name=value` parameters with token or quoted values). */
const NAME = '[a-z0-9][a-z0-9!#$&^_.+-]{0,126}';
const PARAMETER = `\\s*;\\s*[a-z0-9!#$%&'*+.^_\`|~-]+=(?:[a-z0-9!#$%&'*+.^_\`|~-]+|"[^"\\\\\\r\\n]*")`;
const MEDIA_TYPE = new RegExp(`^(${NAME}/${NAME})((?:${PARAMETER})*)\\s*$`, 'i');

/** A type whose file a browser would execute or apply when a page loads it as a script or style sheet. */
function executable(essence: string): boolean {
  return /javascript|ecmascript|jscript|livescript/.test(essence) || essence === 'text/css';
}

export interface MediaServing {
  contentType: string;
  disposition: 'inline' | 'attachment';
}

/** The type to send and whether the browser may show the file, from the type stored with it. */
export function mediaServing(storedType: string): MediaServing {
  const match = MEDIA_TYPE.exec(storedType.trim());
  const essence = match?.[1]?.toLowerCase();
  if (!match || !essence || executable(essence)) {
    return { contentType: FALLBACK_TYPE, disposition: 'attachment' };
  }
  const inline = INLINE_TYPES.has(essence) || essence.startsWith('audio/');
  return {
    contentType: `${essence}${match[2] ?? ''}`,
    disposition: inline ? 'inline' : 'attachment',
  };
}
