import { describe, expect, it } from 'vitest';
import { legalDocument, LEGAL_DOCUMENTS, type LegalFacts } from './legal-documents';

const facts: LegalFacts = {
  slug: 'kin',
  productName: 'Kin',
  operatorName: 'Kin Labs Ltd',
  operatorAddress: '1 Example Street, Berlin',
  contactEmail: 'privacy@kin.example',
  guaranteeDays: 14,
};
const text = (kind: (typeof LEGAL_DOCUMENTS)[number], given = facts) =>
  legalDocument(kind, given)
    .sections.flatMap((section) => [section.heading, ...section.paragraphs])
    .join('\n');

describe('default legal texts', () => {
  it('name the configured product, operator, address and contact on every page', () => {
    for (const kind of LEGAL_DOCUMENTS) {
      expect(text(kind)).toContain('Kin is operated by Kin Labs Ltd, 1 Example Street, Berlin.');
      expect(text(kind)).toContain('privacy@kin.example');
      expect(text(kind)).not.toMatch(/Roots/);
    }
    expect(text('privacy', { ...facts, operatorAddress: null })).toContain('Kin is operated by Kin Labs Ltd.');
  });

  it('say the photo is processed in memory and never stored, and what is stored', () => {
    const privacy = text('privacy');
    expect(privacy).toContain('processes it in memory');
    expect(privacy).toContain('never written to disk, to a database, to logs or to any queue');
    expect(privacy).toMatch(/last four digits of your card/);
  });

  it('state the configured money-back window, and no window when there is no guarantee', () => {
    expect(text('terms')).toContain('Within 14 days of a charge');
    expect(text('terms', { ...facts, guaranteeDays: 0 })).not.toMatch(/Within \d+ days/);
  });

  it('list the sign-in cookies set and no advertising cookie', () => {
    const cookies = text('cookies');
    expect(cookies).toContain('better-auth.');
    expect(cookies).toContain('A purchase cookie (kin_purchases)');
    expect(cookies).toContain('We set no advertising or analytics cookies.');
  });
});
