import nodemailer from 'nodemailer';

export type OutgoingMail = { from: string; to: string; subject: string; text: string; html: string };

/** Where emails go: an SMTP server (`sent`) or the dev mailbox in the database (`stored`). */
export type Mailer = {
  kind: 'smtp' | 'dev-mailbox';
  deliver(mail: OutgoingMail): Promise<'sent' | 'stored'>;
  close(): void;
};

/** SMTP through nodemailer when `smtpUrl` is set; otherwise the dev mailbox (rows stay readable at /dev/mailbox). */
export function createMailer(smtpUrl: string | undefined): Mailer {
  if (!smtpUrl) return { kind: 'dev-mailbox', deliver: async () => 'stored', close: () => undefined };
  const transport = nodemailer.createTransport(smtpUrl);
  return {
    kind: 'smtp',
    deliver: async (mail) => {
      await transport.sendMail(mail);
      return 'sent';
    },
    close: () => transport.close(),
  };
}
