/**
 * Downloading a user's media, in the network's two steps: the media object (`GET /{media-id}`), which
 * names a short-lived download URL, then that URL with the same token. The bytes go straight to a file
 * as they arrive (never whole in memory) and are checked against the network's digest.
 *
 * The download URL comes from an answer, so it passes the same address guard as webhook URLs
 * (src/lib/url-guard.ts): https and a public address, checked again on the address actually dialled,
 * unless private URLs are allowed. Only the Graph base the operator configured (in simulator mode, the
 * simulator inside this process) is trusted as it is, like every other Graph call.
 */
import fs from 'node:fs/promises';
import { type Dispatcher, request } from 'undici';
import type {
  FailureCause,
  MediaResult,
  NetworkFailure,
  NumberCredentials,
} from '../domain/ports/network.ts';
import { StorageError, writeBoundedFile } from '../lib/bounded-file.ts';
import { guardedAgent, webhookUrlProblem } from '../lib/url-guard.ts';
import { GRAPH_USER_AGENT } from './graph-call.ts';
import { failureFromGraphResponse } from './graph-errors.ts';

export interface CloudMediaOptions {
  base: () => string;
  apiVersion: string;
  timeoutMs: number;
  /** The agent of Graph calls, for the Graph base itself. */
  agent: Dispatcher;
  transportFailure(error: unknown, timeoutMs: number): NetworkFailure;
  /** Lets download URLs be http:// and point at private addresses (development and tests). */
  allowPrivateUrls: boolean;
}

type MediaObject = { url?: unknown; mime_type?: unknown; sha256?: unknown; file_size?: unknown } | null;

const permanent = (title: string, details: string, cause: FailureCause = 'media'): MediaResult => ({
  ok: false,
  failure: { kind: 'permanent', cause, code: 0, httpStatus: 0, title, details },
});

/** The network documents the digest as hex in some places and base64 in others: either matches. */
function digestMatches(expected: unknown, hex: string): boolean {
  if (typeof expected !== 'string') return true;
  return expected === hex || expected === Buffer.from(hex, 'hex').toString('base64');
}

/** What the download steps share: the options, and the agent that refuses private addresses. */
interface MediaContext {
  options: CloudMediaOptions;
  guarded: Dispatcher;
}

/** The agent to fetch `url` with, or why it must not be fetched at all. */
function dispatcherFor(ctx: MediaContext, url: string): Dispatcher | string {
  let origin: string;
  try {
    origin = new URL(url).origin;
  } catch {
    return 'the download URL is not an absolute URL';
  }
  if (origin === new URL(ctx.options.base()).origin) return ctx.options.agent;
  const problem = webhookUrlProblem(url, ctx.options.allowPrivateUrls);
  return problem ? `the download URL ${problem}` : ctx.guarded;
}

async function mediaObject(ctx: MediaContext, credentials: NumberCredentials, mediaId: string) {
  const info = await request(
    `${ctx.options.base()}/${ctx.options.apiVersion}/${encodeURIComponent(mediaId)}`,
    {
      method: 'GET',
      headers: { authorization: `Bearer ${credentials.accessToken}`, 'user-agent': GRAPH_USER_AGENT },
      dispatcher: ctx.options.agent,
      signal: AbortSignal.timeout(ctx.options.timeoutMs),
    },
  );
  const text = await info.body.text();
  let meta: MediaObject = null;
  try {
    meta = JSON.parse(text);
  } catch {
    // Classified by status by the caller.
  }
  return { status: info.statusCode, text, meta };
}

async function download(
  ctx: MediaContext,
  credentials: NumberCredentials,
  mediaId: string,
  maxBytes: number,
  toFile: string,
): Promise<MediaResult> {
  const { status, text, meta } = await mediaObject(ctx, credentials, mediaId);
  if (status < 200 || status >= 300) {
    return { ok: false, failure: failureFromGraphResponse(status, meta, null) };
  }
  if (typeof meta?.url !== 'string' || typeof meta.mime_type !== 'string') {
    return permanent('unexpected network answer', text.slice(0, 200), 'unexpected_answer');
  }
  if (typeof meta.file_size === 'number' && meta.file_size > maxBytes) {
    return permanent('media too large', `${meta.file_size} bytes; at most ${maxBytes} are kept`);
  }
  const dispatcher = dispatcherFor(ctx, meta.url);
  if (typeof dispatcher === 'string') return permanent('media download refused', dispatcher);
  const answer = await request(meta.url, {
    method: 'GET',
    headers: { authorization: `Bearer ${credentials.accessToken}`, 'user-agent': GRAPH_USER_AGENT },
    dispatcher,
    signal: AbortSignal.timeout(ctx.options.timeoutMs * 3),
  });
  if (answer.statusCode !== 200) {
    await answer.body.dump();
    return permanent('media download refused', `HTTP ${answer.statusCode}`);
  }
  const written = await writeBoundedFile(answer.body, toFile, maxBytes);
  if (!written.ok) return permanent('media too large', `more than ${maxBytes} bytes`);
  if (!digestMatches(meta.sha256, written.sha256)) {
    await fs.rm(toFile, { force: true });
    return permanent('media corrupted', 'the downloaded bytes do not match the network sha256');
  }
  return { ok: true, media: { mimeType: meta.mime_type, size: written.size, sha256: written.sha256 } };
}

export function cloudMediaDownloads(options: CloudMediaOptions) {
  // Its connect-time check refuses private addresses a public name resolves to (DNS rebinding included).
  const guarded = guardedAgent(options.allowPrivateUrls, options.timeoutMs);
  const ctx: MediaContext = { options, guarded };
  return {
    async fetchMedia(
      credentials: NumberCredentials,
      mediaId: string,
      maxBytes: number,
      toFile: string,
    ): Promise<MediaResult> {
      try {
        return await download(ctx, credentials, mediaId, maxBytes, toFile);
      } catch (error) {
        await fs.rm(toFile, { force: true });
        if (error instanceof StorageError) return permanent('media not stored', error.message);
        const e = error as { code?: string; cause?: { code?: string } };
        if ((e.cause?.code ?? e.code) === 'EPRIVATEADDR') {
          return permanent('media download refused', 'the download URL resolves only to private addresses');
        }
        return { ok: false, failure: options.transportFailure(error, options.timeoutMs) };
      }
    },
  };
}
