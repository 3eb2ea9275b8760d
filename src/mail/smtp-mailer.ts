/**
 * The mailer of the domain (src/domain/ports/mailer.ts) over SMTP with nodemailer: one transport (a
 * connection per mail: links are few) built from SMTP_URL (its credentials stay inside it, never in a log line). Each send is bounded in
 * time so that a page that mails a link answers even when the mail server does not.
 */
import nodemailer from 'nodemailer';
import type { Mailer } from '../domain/ports/mailer.ts';

const TIMEOUT_MS = 15_000;

export function smtpMailer(settings: { smtpUrl: string; from: string }): Mailer {
  const url = new URL(settings.smtpUrl);
  const transport = nodemailer.createTransport({
    host: url.hostname,
    port: url.port ? Number(url.port) : url.protocol === 'smtps:' ? 465 : 587,
    secure: url.protocol === 'smtps:',
    ...(url.username
      ? { auth: { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) } }
      : {}),
    connectionTimeout: TIMEOUT_MS,
    greetingTimeout: TIMEOUT_MS,
    socketTimeout: TIMEOUT_MS,
  });
  return {
    async send(mail) {
      await transport.sendMail({ from: settings.from, to: mail.to, subject: mail.subject, text: mail.text });
    },
  };
}
