/**
 * A one-time link of the team (team.ts) mailed to the person it is for, when the gateway has a mail server
 * (docs/portal.md, "Team"). The link is shown on the page all the same: a mail that does not arrive leaves
 * the member who made it a way to give it. The mail says what the link does, for whom, and until when.
 */
import type { Mailer } from './ports/mailer.ts';

/** What became of the mail: not configured, accepted by the server, or refused with the server's reason. */
export type MailOutcome = { kind: 'off' } | { kind: 'sent' } | { kind: 'failed'; reason: string };

export interface LinkMail {
  to: string;
  /** `invite`: joins the account; `reset`: sets a new password for the member's own sign-in. */
  purpose: 'invite' | 'reset';
  accountName: string;
  link: string;
  expiresAt: number;
}

function textOf(m: LinkMail): { subject: string; text: string } {
  const until = new Date(m.expiresAt).toISOString().replace('T', ' ').slice(0, 16);
  const action =
    m.purpose === 'invite'
      ? {
          subject: `Join ${m.accountName} on Switchboard`,
          line: `You are invited to join ${m.accountName} on Switchboard.`,
        }
      : {
          subject: `Set a new Switchboard password`,
          line: `A new password was asked for your sign-in to ${m.accountName} on Switchboard.`,
        };
  return {
    subject: action.subject,
    text: `${action.line}\n\nOpen this link to choose your password (it works once, until ${until} UTC):\n\n${m.link}\n\nIf you did not expect this message, ignore it: nothing changes until the link is opened.\n`,
  };
}

export async function mailLink(mailer: Mailer | null, mail: LinkMail): Promise<MailOutcome> {
  if (!mailer) return { kind: 'off' };
  try {
    await mailer.send({ to: mail.to, ...textOf(mail) });
    return { kind: 'sent' };
  } catch (error) {
    return { kind: 'failed', reason: error instanceof Error ? error.message : String(error) };
  }
}
