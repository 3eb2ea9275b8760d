/**
 * Voice calls on the simulated network (`POST /{phone-number-id}/calls`, docs/cloud-api.md §11), the
 * signalling only: no audio flows, and the session descriptions are taken and given as text.
 *
 * - A business calls a user (`action: connect`, an SDP offer): allowed while the user's 24-hour window
 *   is open, which stands in here for the user's call permission (else error 138006). The network posts
 *   a `RINGING` status, then the virtual user answers: a `connect` webhook with an SDP answer and an
 *   `ACCEPTED` status.
 * - A user calls a business (`POST /simulator/users/:phone/calls`): a `connect` webhook with an SDP
 *   offer; the business may `pre_accept`, `accept` (each with an SDP answer) or `reject` it.
 * - Either side's call ends with `terminate`: a `terminate` webhook, `COMPLETED` with its duration when
 *   it was answered, else `FAILED`.
 *
 * Webhooks go out under the field `calls`, in the shapes Meta's show. Calls in progress are kept in the
 * state journal until they end.
 */
import { randomBytes } from 'node:crypto';
import type { Scheduler } from './scheduler.ts';
import type { StateJournal } from './state/journal.ts';
import type { UserIds } from './user-ids.ts';
import { changeEnvelope, unixSeconds } from './webhook-envelopes.ts';
import type { WebhookPoster } from './webhook-poster.ts';

export type CallDirection = 'BUSINESS_INITIATED' | 'USER_INITIATED';

export interface Call {
  id: string;
  business: string;
  user: string;
  direction: CallDirection;
  state: 'ringing' | 'pre_accepted' | 'accepted';
  callbackData?: string;
  /** When it was answered (epoch ms), for the duration. */
  answeredAt?: number;
}

/** The journal's kind, keyed by call id. */
export const CALL_KIND = 'call';

/** What the virtual user's phone answers with: a session description of the right form, no media. */
const SDP = (type: 'offer' | 'answer') =>
  `v=0\r\no=- ${Date.now()} 2 IN IP4 127.0.0.1\r\ns=simulated ${type}\r\nt=0 0\r\nm=audio 9 UDP/TLS/RTP/SAVPF 111\r\na=rtpmap:111 opus/48000/2\r\n`;

export interface CallsOptions {
  journal: StateJournal;
  poster: WebhookPoster;
  scheduler: Scheduler;
  userIds: UserIds;
  /** How long the virtual user's phone rings before it answers. */
  ringMs: number;
  now: () => number;
}

export class Calls {
  readonly #calls = new Map<string, Call>();
  readonly #options: CallsOptions;

  constructor(options: CallsOptions) {
    this.#options = options;
  }

  restore(records: Call[]): void {
    for (const call of records) this.#calls.set(call.id, call);
  }

  get(id: string): Call | undefined {
    return this.#calls.get(id);
  }

  /** A business calls a user; the virtual user answers after `ringMs`. */
  businessCalls(business: string, user: string, callbackData: string | undefined): Call {
    const call = this.#keep({
      id: newCallId(),
      business,
      user,
      direction: 'BUSINESS_INITIATED',
      state: 'ringing',
    });
    if (callbackData !== undefined) call.callbackData = callbackData;
    this.#status(call, 'RINGING');
    this.#options.scheduler.after(this.#options.ringMs, () => {
      const ringing = this.#calls.get(call.id);
      if (ringing?.state !== 'ringing') return;
      this.#answered(ringing);
      this.#post(ringing, { event: 'connect', session: { sdp_type: 'answer', sdp: SDP('answer') } });
      this.#status(ringing, 'ACCEPTED');
    });
    return call;
  }

  /** A user calls a business: the business is told with the user's offer. */
  userCalls(business: string, user: string): Call {
    const call = this.#keep({
      id: newCallId(),
      business,
      user,
      direction: 'USER_INITIATED',
      state: 'ringing',
    });
    this.#post(call, { event: 'connect', session: { sdp_type: 'offer', sdp: SDP('offer') } });
    return call;
  }

  preAccept(call: Call): void {
    call.state = 'pre_accepted';
    this.#keep(call);
  }

  accept(call: Call, callbackData: string | undefined): void {
    if (callbackData !== undefined) call.callbackData = callbackData;
    this.#answered(call);
  }

  /** The call ends (terminated by either side, or rejected): the business gets the `terminate` webhook. */
  end(call: Call): void {
    const now = this.#options.now();
    const answeredAt = call.answeredAt;
    const answered = answeredAt !== undefined;
    const times =
      answeredAt !== undefined
        ? {
            start_time: unixSeconds(answeredAt),
            end_time: unixSeconds(now),
            duration: Math.round((now - answeredAt) / 1000),
          }
        : {};
    this.#post(call, { event: 'terminate', status: answered ? 'COMPLETED' : 'FAILED', ...times });
    this.#calls.delete(call.id);
    this.#options.journal.remove(CALL_KIND, call.id);
  }

  #answered(call: Call): void {
    call.state = 'accepted';
    call.answeredAt = this.#options.now();
    this.#keep(call);
  }

  #keep(call: Call): Call {
    this.#calls.set(call.id, call);
    this.#options.journal.put(CALL_KIND, call.id, call);
    return call;
  }

  #fromTo(call: Call) {
    return call.direction === 'BUSINESS_INITIATED'
      ? { from: call.business, to: call.user }
      : { from: call.user, to: call.business };
  }

  /** A `calls` change: the call's event, with the user as a contact, as Meta posts them. */
  #post(call: Call, event: Record<string, unknown>): void {
    const userId = this.#options.userIds.idOf(call.business, call.user);
    const item = {
      id: call.id,
      ...this.#fromTo(call),
      timestamp: unixSeconds(this.#options.now()),
      direction: call.direction,
      ...(call.callbackData !== undefined ? { biz_opaque_callback_data: call.callbackData } : {}),
      ...event,
    };
    this.#options.poster.enqueue(
      `call:${call.id}`,
      changeEnvelope(call.business, 'calls', {
        contacts: [{ profile: { name: `User ${call.user.slice(-4)}` }, wa_id: call.user, user_id: userId }],
        calls: [item],
      }),
    );
  }

  /** A business-initiated call's status (`RINGING`, `ACCEPTED`), as a `calls` change's `statuses`. */
  #status(call: Call, status: string): void {
    const item = {
      id: call.id,
      timestamp: unixSeconds(this.#options.now()),
      type: 'call',
      status,
      recipient_id: call.user,
      ...(call.callbackData !== undefined ? { biz_opaque_callback_data: call.callbackData } : {}),
    };
    this.#options.poster.enqueue(
      `call:${call.id}`,
      changeEnvelope(call.business, 'calls', { statuses: [item] }),
    );
  }
}

function newCallId(): string {
  return `wacid.${randomBytes(18).toString('base64url')}`;
}
