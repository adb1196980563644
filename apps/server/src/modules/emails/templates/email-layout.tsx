/** @jsxRuntime automatic */
/** @jsxImportSource react */
// The pragmas keep the automatic JSX runtime under every runner (tsx from the repository root reads no
// tsconfig of this app: the classic runtime would look for a global React).
import type { EmailKind } from '@roots/contracts/emails';
import { Fragment, type CSSProperties, type ReactElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { Body, Button, Container, Head, Heading, Hr, Html, Link, Section, Text, toPlainText } from 'react-email';

/**
 * An email as the outbox takes it. `secrets` are the values in it that prove something when used
 * (a sign-in code, a cancel link): the outbox keeps them sealed until delivery and stores only a
 * redacted copy (issue 22), so every template names them, even when there are none.
 */
export type RenderedEmail = { kind: EmailKind; subject: string; text: string; html: string; secrets: readonly string[] };

/**
 * A sentence that ends in a link: the plain URL follows the sentence (in the text part, and in the
 * HTML for clients that show no buttons), and `button` is the link again as a button above it.
 */
export type EmailAction = { text: string; url: string; button?: string };

/** One block of an email's body: a paragraph, or an {@link EmailAction}. */
export type EmailBlock = string | EmailAction;

export type EmailContent = {
  kind: EmailKind;
  subject: string;
  /** The product the email comes from: the header of every email. */
  productName: string;
  blocks: readonly EmailBlock[];
  /** Every code and signed link in `blocks` (null for an optional one that is absent). */
  secrets: readonly (string | null)[];
};

/**
 * The doctype React Email's own `render` writes. Its `render` is asynchronous (React's streaming
 * renderer); the templates render the same components with React's synchronous renderer instead,
 * so a template stays a plain function, and put the same doctype first (ADR 142).
 */
const DOCTYPE = '<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd">';

/** How the text part is made from the HTML: React Email's conversion, with the header left as written. */
export const PLAIN_TEXT_OPTIONS = { selectors: [{ selector: 'h1', options: { uppercase: false } }] };

const FONT = "-apple-system, BlinkMacSystemFont, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif";
const styles = {
  page: { backgroundColor: '#f4f4f5', fontFamily: FONT, margin: 0, padding: '24px 0' },
  card: { backgroundColor: '#ffffff', border: '1px solid #e4e4e7', borderRadius: '8px', padding: '8px 32px 24px' },
  header: { color: '#18181b', fontSize: '20px', fontWeight: 700, margin: '16px 0 8px' },
  paragraph: { color: '#27272a', fontSize: '15px', lineHeight: '24px', margin: '12px 0' },
  button: {
    backgroundColor: '#18181b',
    borderRadius: '6px',
    color: '#ffffff',
    fontSize: '15px',
    fontWeight: 600,
    padding: '12px 20px',
  },
  buttonRow: { margin: '20px 0 4px' },
  link: { color: '#2563eb', textDecoration: 'underline', wordBreak: 'break-all' },
  footer: { fontFamily: FONT, padding: '0 32px' },
  rule: { borderTop: '1px solid #e4e4e7', margin: '16px 0' },
  footerText: { color: '#555555', fontSize: '12px', lineHeight: '18px', margin: 0 },
} satisfies Record<string, CSSProperties>;

function Block({ block }: { block: EmailBlock }) {
  if (typeof block === 'string') return <Text style={styles.paragraph}>{block}</Text>;
  return (
    <>
      {block.button && (
        // The button is the link once more: the text part keeps only the sentence with the URL.
        <Section style={styles.buttonRow} data-skip-in-text="true">
          <Button href={block.url} style={styles.button}>
            {block.button}
          </Button>
        </Section>
      )}
      <Text style={styles.paragraph}>
        {block.text}{' '}
        <Link href={block.url} style={styles.link}>
          {block.url}
        </Link>
      </Text>
    </>
  );
}

/** The whole email as React Email components: the product's name, then the body's blocks. */
export function EmailDocument({ subject, productName, blocks }: Pick<EmailContent, 'subject' | 'productName' | 'blocks'>): ReactElement {
  return (
    <Html lang="en">
      <Head>
        <title>{subject}</title>
      </Head>
      <Body style={styles.page}>
        <Container style={styles.card}>
          <Heading as="h1" style={styles.header}>
            {productName}
          </Heading>
          {blocks.map((block, index) => (
            <Block key={index} block={block} />
          ))}
        </Container>
      </Body>
    </Html>
  );
}

/** An email's subject, HTML and text (the text is made from the HTML), and the secrets it carries. */
export function renderEmail(content: EmailContent): RenderedEmail {
  const html = `${DOCTYPE}${renderToStaticMarkup(<EmailDocument {...content} />)}`;
  return {
    kind: content.kind,
    subject: content.subject,
    text: toPlainText(html, PLAIN_TEXT_OPTIONS),
    html,
    secrets: content.secrets.filter((secret): secret is string => !!secret),
  };
}

/**
 * The merchant's footer as HTML, one line a row, under the email's card (the outbox adds it when it
 * sends an email, before `</body>`).
 */
export function merchantFooterHtml(lines: readonly string[]): string {
  return renderToStaticMarkup(
    <Container style={styles.footer}>
      <Hr style={styles.rule} />
      <Text style={styles.footerText}>
        {lines.map((line, index) => (
          <Fragment key={index}>
            {index > 0 && <br />}
            {line}
          </Fragment>
        ))}
      </Text>
    </Container>,
  );
}
