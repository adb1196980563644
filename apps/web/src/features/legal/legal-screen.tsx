import { Link, useMatches } from 'react-router';
import { Screen } from '../../components/ui/screen';
import { productPath } from '../../lib/paths';
import { usePublicConfig } from '../../lib/public-config-context';
import { isLegalDocumentKind, legalDocument, LEGAL_DOCUMENTS, type LegalDocumentKind } from './legal-documents';

/** Route handle naming the legal page a route shows. */
export type LegalRouteHandle = { legalDocument: LegalDocumentKind };

function legalKind(handles: unknown[]): LegalDocumentKind {
  for (const handle of [...handles].reverse()) {
    const kind = (handle as Partial<LegalRouteHandle> | undefined)?.legalDocument;
    if (isLegalDocumentKind(kind)) return kind;
  }
  return 'terms';
}

/** `/{slug}/legal/{cookies|privacy|terms}`: the default legal texts filled from configuration. */
export function LegalScreen() {
  const kind = legalKind(useMatches().map((match) => match.handle));
  const { slug, productName, legal, guaranteeDays } = usePublicConfig();
  const doc = legalDocument(kind, { slug, productName, guaranteeDays, ...legal });
  return (
    <Screen title={doc.title} testId={`legal-${kind}`}>
      {doc.sections.map((section) => (
        <section key={section.heading} className="legal__section">
          <h2>{section.heading}</h2>
          {section.paragraphs.map((paragraph) => (
            <p key={paragraph}>{paragraph}</p>
          ))}
        </section>
      ))}
      <nav aria-label="Other legal pages">
        {LEGAL_DOCUMENTS.filter((other) => other !== kind).map((other) => (
          <Link key={other} to={productPath(slug, `legal/${other}`)} className="button button--link">
            {legalDocument(other, { slug, productName, guaranteeDays, ...legal }).title}
          </Link>
        ))}
      </nav>
    </Screen>
  );
}
