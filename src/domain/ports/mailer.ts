/** Email out (docs/configuration.md, Email): what the team's one-time links are sent through when configured. */
export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  /** Resolves once the mail server accepted the message; rejects with its reason otherwise. */
  send(mail: OutgoingMail): Promise<void>;
}
