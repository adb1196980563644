import { mailboxResponseSchema, type EmailKind, type MailboxMessage } from '@roots/contracts/emails';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { escapeHtml } from './email-templates';
import type { EmailsService } from './emails.service';
import { ERROR_RESPONSES } from '../../plugins/error-responses';

/**
 * The dev mailbox: every email the server wrote, the delivered ones as their recipient reads them
 * (the outbox itself keeps only redacted copies). Never registered in production.
 */
export const devMailboxRoutes: FastifyPluginAsyncZod<{ emails: EmailsService }> = async (app, { emails }) => {
  const messages = async (): Promise<MailboxMessage[]> =>
    (await emails.devInbox(200)).map((row) => ({
      id: row.id,
      kind: row.kind as EmailKind,
      to: row.to,
      subject: row.delivered?.subject ?? row.subject,
      text: row.delivered?.text ?? row.text,
      status: row.status as MailboxMessage['status'],
      createdAt: row.createdAt.toISOString(),
    }));

  app.get('/dev/mailbox.json', { schema: { response: { 200: mailboxResponseSchema, ...ERROR_RESPONSES } } }, async () => ({
    messages: await messages(),
  }));

  app.get('/dev/mailbox', async (_request, reply) => {
    const items = (await messages())
      .map(
        (m) =>
          `<article><h2>${escapeHtml(m.subject)}</h2><p><small>${escapeHtml(m.createdAt)} · to ${escapeHtml(m.to)} · ${m.kind} · ${m.status}</small></p><pre style="white-space:pre-wrap">${escapeHtml(m.text).replace(/(https?:\/\/[^\s<]+)/g, '<a href="$1">$1</a>')}</pre></article><hr>`,
      )
      .join('');
    return reply
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .send(
        `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Dev mailbox</title></head><body style="font-family:sans-serif;max-width:48rem;margin:2rem auto"><h1>Dev mailbox</h1>${items || '<p>No emails yet.</p>'}</body></html>`,
      );
  });
};
