import nodemailer from 'nodemailer';

/** One email on its way out; `id` is the outbox row's (the dev mailbox files the email under it). */
export type OutgoingMail = { id: string; from: string; replyTo?: string; to: string; subject: string; text: string; html: string };

/** Where emails go: an SMTP server (`sent`) or the dev mailbox in the database (`stored`). */
export type Mailer = {
  kind: 'smtp' | 'dev-mailbox';
  deliver(mail: OutgoingMail): Promise<'sent' | 'stored'>;
  close(): void;
};

/**
 * SMTP through nodemailer when `smtpUrl` is set; otherwise the dev mailbox: `store` files the email
 * in full in the development inbox (`/dev/mailbox`), which stands for the recipient's mail server.
 */
export function createMailer(smtpUrl: string | undefined, store: (mail: OutgoingMail) => Promise<void>): Mailer {
  if (!smtpUrl) {
    return {
      kind: 'dev-mailbox',
      deliver: async (mail) => {
        await store(mail);
        return 'stored';
      },
      close: () => undefined,
    };
  }
  const transport = nodemailer.createTransport(smtpUrl);
  return {
    kind: 'smtp',
    deliver: async ({ from, replyTo, to, subject, text, html }) => {
      await transport.sendMail({ from, to, subject, text, html, ...(replyTo ? { replyTo } : {}) });
      return 'sent';
    },
    close: () => transport.close(),
  };
}
