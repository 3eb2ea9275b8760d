/**
 * The mailer of the domain (src/domain/ports/mailer.ts) over SMTP with nodemailer: one transport (a
 * connection per mail: links are few) built from SMTP_URL (its credentials stay inside it, never in a log
 * line). Each send is bounded in time so that a page that mails a link answers even when the mail server
 * does not.
 *
 * nodemailer is loaded at the first mail, not at start: its ESM build imports `node:http` as ESM, and
 * Node then builds that module's ESM view, which loads Node's own fetch implementation (undici) with it,
 * about 70 ms of every start's CPU on a two-core machine, for mails that a gateway sends a few of a day.
 */
import type { Transporter } from 'nodemailer';
import type { Mailer } from '../domain/ports/mailer.ts';

const TIMEOUT_MS = 15_000;

export function smtpMailer(settings: { smtpUrl: string; from: string }): Mailer {
  const url = new URL(settings.smtpUrl);
  const options = {
    host: url.hostname,
    port: url.port ? Number(url.port) : url.protocol === 'smtps:' ? 465 : 587,
    secure: url.protocol === 'smtps:',
    ...(url.username
      ? { auth: { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) } }
      : {}),
    connectionTimeout: TIMEOUT_MS,
    greetingTimeout: TIMEOUT_MS,
    socketTimeout: TIMEOUT_MS,
  };
  let transport: Promise<Transporter> | undefined;
  return {
    async send(mail) {
      transport ??= import('nodemailer').then((m) => m.default.createTransport(options));
      const mailer = await transport;
      await mailer.sendMail({ from: settings.from, to: mail.to, subject: mail.subject, text: mail.text });
    },
  };
}
