/** Media users sent, served from the gateway's own storage behind signed, expiring links. */
import type { MediaLibrary } from '../../../domain/inbound-media.ts';
import type { TypedApp } from '../../typed-app.ts';
import { registerServeMedia } from './serve-file.ts';

export function registerMediaRoutes(app: TypedApp, media: MediaLibrary, secretKey: Buffer): void {
  registerServeMedia(app, media, secretKey);
}
