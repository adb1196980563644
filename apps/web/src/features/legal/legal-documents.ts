/** The three legal pages of product-spec §2 ("cookie, privacy and terms pages on the product's own site"). */
export const LEGAL_DOCUMENTS = ['cookies', 'privacy', 'terms'] as const;
export type LegalDocumentKind = (typeof LEGAL_DOCUMENTS)[number];

export function isLegalDocumentKind(value: string | undefined): value is LegalDocumentKind {
  return (LEGAL_DOCUMENTS as readonly string[]).includes(value ?? '');
}

/** What the default texts are filled with: all from configuration (white-label). */
export type LegalFacts = {
  /** Product slug: names the purchase cookie (`{slug}_purchases`). */
  slug: string;
  productName: string;
  operatorName: string;
  operatorAddress: string | null;
  contactEmail: string;
  /** Days after a charge within which the money-back guarantee refunds it (0: none). */
  guaranteeDays: number;
};

export type LegalSection = { heading: string; paragraphs: string[] };
export type LegalDocument = { title: string; sections: LegalSection[] };

function operator(facts: LegalFacts): LegalSection {
  return {
    heading: 'Who we are',
    paragraphs: [
      `${facts.productName} is operated by ${facts.operatorName}${facts.operatorAddress ? `, ${facts.operatorAddress}` : ''}.`,
      `Write to ${facts.contactEmail} with any question about this page, your data or your purchases.`,
    ],
  };
}

/**
 * The default text of a legal page, true to what the product does: the photo is analysed in memory
 * and never stored; only the results, the purchase records and what you type are kept; the only
 * cookies set are the sign-in (and purchase) cookies of this site.
 */
export function legalDocument(kind: LegalDocumentKind, facts: LegalFacts): LegalDocument {
  const { productName } = facts;
  switch (kind) {
    case 'privacy':
      return {
        title: 'Privacy policy',
        sections: [
          operator(facts),
          {
            heading: 'Your photo',
            paragraphs: [
              `The selfie you take or upload stays in your browser until ${productName} analyses it. Our server processes it in memory to check that it shows one face and to estimate which population groups it visually resembles, then discards it.`,
              'The photo is never written to disk, to a database, to logs or to any queue, and we do not collect biometric data: no face template or other identifier of your face is kept.',
            ],
          },
          {
            heading: 'What we store',
            paragraphs: [
              'Your email address, to send receipts, sign-in codes and reminders, and to link your purchases to you.',
              'Your purchases: the plan, amounts, dates and status, and the brand and last four digits of your card. The full card number, expiry date and security code are entered in our payment provider’s secure fields and never reach our servers.',
              'The payment terms you accepted, word for word, with the time you accepted them.',
              'The results of your report (the resemblance estimate with its uncertainty and the facial traits it describes), not the photo they were computed from.',
              'What you choose to enter: your name, date and time of birth (for the horoscope and biorhythm) and any feedback.',
              'Your sign-in account (email and, when you use a Google-type or Apple-type provider, the name it shares) and your sign-in sessions.',
              'When campaign measurement is switched on, the funnel steps you reach with the campaign that brought you, your IP address, country, browser and referring page.',
            ],
          },
          {
            heading: 'Why, and for how long',
            paragraphs: [
              'We use this data to provide the service you bought, to charge and refund you as the terms say, to send the emails the service needs, and to measure which campaigns bring customers.',
              'Purchase and payment records are kept as long as accounting law requires. Everything else is kept until you delete it.',
            ],
          },
          {
            heading: 'Your choices',
            paragraphs: [
              `Delete your account, reports and profile at any time in your ${productName} profile (“Delete my data”). Purchase records are unlinked from you and kept as financial records; cancel a subscription before deleting your data.`,
              `To see, correct or export your data, or to object to its use, write to ${facts.contactEmail}.`,
            ],
          },
        ],
      };
    case 'cookies':
      return {
        title: 'Cookie policy',
        sections: [
          operator(facts),
          {
            heading: 'Cookies we set',
            paragraphs: [
              'Sign-in cookies (names starting with “better-auth.”): they keep you signed in. They are set only when you sign in, are readable by our server only (HttpOnly), and end with your session or when you sign out.',
              `A purchase cookie (${facts.slug}_purchases): set by our server when you pay, it proves to our server that this browser made the purchase, so the report and offers that follow reach only you. It is readable by our server only (HttpOnly).`,
              'We set no advertising or analytics cookies.',
            ],
          },
          {
            heading: 'Cookies we read but do not set',
            paragraphs: [
              'If an advertising partner’s pixel on a page that sent you here left its click and browser cookies (_fbc, _fbp), we read them once when you buy to attribute the purchase to the campaign.',
            ],
          },
          {
            heading: 'Storage in your browser',
            paragraphs: [
              'For this visit only (session storage): the email you entered, your purchase id, the page you were on, the referring page and whether campaign measurement is on. They are gone when you close the tab.',
              'In local storage: a flag while you are away at a payment or sign-in page (cleared after 3 seconds) and the version of the payment form.',
              'The card fields are served by our payment provider from its own site; what that site stores is governed by the provider’s policy.',
            ],
          },
        ],
      };
    case 'terms':
      return {
        title: 'Terms of use',
        sections: [
          operator(facts),
          {
            heading: 'What you get',
            paragraphs: [
              `${productName} estimates which population groups your face visually resembles, with its uncertainty, and adds a daily horoscope, a biorhythm and population insights. It is not a genetic test and not a statement of your race, ethnicity or ancestry. You must be 18 or older to use it.`,
            ],
          },
          {
            heading: 'Prices, trials and renewals',
            paragraphs: [
              'Next to the pay button you see the amount charged today and, for a subscription, the price and period of every later charge. Your receipt email repeats them.',
              'A trial is charged at its trial price and converts automatically to the plan price at its end unless you cancel before; we email you before a trial converts. A subscription renews automatically at the end of each period at the price shown, charged to the card you paid with, until you cancel.',
              'One-time packs are charged once and never renew.',
            ],
          },
          {
            heading: 'Cancelling',
            paragraphs: [
              `Cancel at any time: in your ${productName} account under Manage subscriptions, on the cancel page with your purchase email, or with the one-click link in every receipt. No further charge is made after you cancel; your access lasts until the end of the period you paid for.`,
            ],
          },
          {
            heading: 'Money-back guarantee',
            paragraphs: [
              facts.guaranteeDays > 0
                ? `Not happy? Within ${facts.guaranteeDays} days of a charge, ask for your money back when you cancel or write to ${facts.contactEmail}, and we refund that charge in full.`
                : `Refunds are handled case by case: write to ${facts.contactEmail}.`,
            ],
          },
          {
            heading: 'Contact',
            paragraphs: [`Questions about these terms or your purchase: ${facts.contactEmail}.`],
          },
        ],
      };
  }
}
