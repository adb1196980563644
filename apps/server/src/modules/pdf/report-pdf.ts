import { heritageColour, RELIABILITY_EXPLAINED, resemblanceConclusion, shownGroups } from '@roots/contracts/heritage-wording';
import { FACE_REGION_TEMPLATE, type FaceRegionId, type Report, type ReportResult } from '@roots/contracts/reports';
import PDFDocument from 'pdfkit';

const PAGE_MARGIN = 50;
const INK = '#1f2430';
const MUTED = '#6b7280';
/** The attribution tint of regions that support the estimate (the web report's first group colour). */
const ACCENT = heritageColour(0);

/** Characters the standard PDF fonts (WinAnsi) can show beyond Latin-1. */
const WIN_ANSI_EXTRAS = new Set('‘’“”–—…•€™‰‹›ŠšŽžŒœŸƒ');

/** Text the built-in Helvetica can draw: accents folded, anything else replaced. */
export function pdfSafeText(text: string): string {
  let out = '';
  for (const char of text) {
    if ((char.codePointAt(0) ?? 0) < 256 || WIN_ANSI_EXTRAS.has(char)) {
      out += char;
      continue;
    }
    const folded = [...char.normalize('NFKD')].filter((part) => (part.codePointAt(0) ?? 0) < 256).join('');
    out += folded || '?';
  }
  return out;
}

type Doc = PDFKit.PDFDocument;

/**
 * The PDF of a completed report: the heritage diagram and breakdown, facial traits on a
 * schematic face with region attributions, cultural and population insights. Everything is
 * vector graphics and text; no photo exists to embed.
 *
 * Pages: `extended` 3 (heritage, traits, insights); `population` 2 (heritage, population).
 */
export function renderReportPdf(report: Report & { result: ReportResult }, options: { productName: string }): Promise<Buffer> {
  const doc = new PDFDocument({
    size: 'A4',
    margin: PAGE_MARGIN,
    info: { Title: `${options.productName} heritage report`, Author: options.productName, Subject: 'Heritage-resemblance report' },
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  heritagePage(doc, report, options.productName);
  if (report.kind === 'extended') {
    doc.addPage();
    traitsPage(doc, report.result);
    doc.addPage();
    culturalPage(doc, report.result);
  } else {
    doc.addPage();
    populationPage(doc, report.result);
  }
  doc.end();
  return done;
}

function heading(doc: Doc, text: string, size = 20): void {
  doc.fillColor(INK).font('Helvetica-Bold').fontSize(size).text(pdfSafeText(text));
  doc.moveDown(0.4);
}

function body(doc: Doc, text: string, options: PDFKit.Mixins.TextOptions = {}): void {
  doc.fillColor(INK).font('Helvetica').fontSize(10.5).text(pdfSafeText(text), options);
}

function note(doc: Doc, text: string): void {
  doc.fillColor(MUTED).font('Helvetica-Oblique').fontSize(8.5).text(pdfSafeText(text));
}

function heritagePage(doc: Doc, report: Report & { result: ReportResult }, productName: string): void {
  const { result } = report;
  heading(doc, `Your ${productName} report`, 24);
  note(doc, `Report ${report.report_id} - created ${report.created_at.slice(0, 10)} - model ${result.modelVersion}`);
  doc.moveDown();
  heading(doc, 'Ethnicity Conclusion', 15);
  // The web report's words, groups and palette (packages/contracts heritage-wording, ADR 148).
  body(doc, resemblanceConclusion(result.heritage));
  body(doc, `Confidence: ${result.heritage.confidenceLevel}.`);
  doc.moveDown();
  heading(doc, 'Your Ethnicity', 15);

  // Donut diagram of the shares, drawn as vector slices.
  const groups = shownGroups(result.heritage);
  const centreX = PAGE_MARGIN + 110;
  const centreY = doc.y + 110;
  const outer = 100;
  const inner = 55;
  let angle = -Math.PI / 2;
  groups.forEach((group, index) => {
    const sweep = (group.share / 100) * 2 * Math.PI;
    doc.path(donutSlice(centreX, centreY, outer, inner, angle, angle + sweep)).fill(heritageColour(index));
    angle += sweep;
  });
  doc
    .fillColor(INK)
    .font('Helvetica-Bold')
    .fontSize(16)
    .text(`${groups[0]?.share ?? 0}%`, centreX - 40, centreY - 9, { width: 80, align: 'center' });
  // Legend beside the diagram.
  let legendY = centreY - outer + 10;
  groups.forEach((group, index) => {
    doc.rect(centreX + outer + 40, legendY, 10, 10).fill(heritageColour(index));
    doc
      .fillColor(INK)
      .font('Helvetica')
      .fontSize(10)
      .text(pdfSafeText(`${group.label}  ${group.share}%`), centreX + outer + 58, legendY, { lineBreak: false });
    legendY += 18;
  });
  doc.x = PAGE_MARGIN;
  doc.y = centreY + outer + 25;

  heading(doc, 'Detalisation', 15);
  note(doc, RELIABILITY_EXPLAINED);
  doc.moveDown(0.5);
  const barLeft = PAGE_MARGIN + 130;
  const barWidth = 150;
  groups.forEach((group, index) => {
    const y = doc.y;
    doc.fillColor(INK).font('Helvetica').fontSize(10).text(pdfSafeText(group.label), PAGE_MARGIN, y, { width: 125, lineBreak: false });
    doc.rect(barLeft, y + 1, barWidth, 8).fill('#e5e7eb');
    doc.rect(barLeft, y + 1, (barWidth * group.share) / 100, 8).fill(heritageColour(index));
    doc
      .fillColor(INK)
      .text(pdfSafeText(`${group.share}% visual resemblance, ${group.uncertainty}`), barLeft + barWidth + 10, y, { lineBreak: false });
    doc.x = PAGE_MARGIN;
    doc.y = y + 16;
  });
  doc.moveDown();
  note(doc, result.heritage.disclaimer);
}

function donutSlice(cx: number, cy: number, outer: number, inner: number, from: number, to: number): string {
  const sweep = Math.min(to - from, 2 * Math.PI - 1e-4);
  const end = from + sweep;
  const large = sweep > Math.PI ? 1 : 0;
  const point = (radius: number, angle: number) =>
    `${(cx + radius * Math.cos(angle)).toFixed(2)} ${(cy + radius * Math.sin(angle)).toFixed(2)}`;
  return [
    `M ${point(outer, from)}`,
    `A ${outer} ${outer} 0 ${large} 1 ${point(outer, end)}`,
    `L ${point(inner, end)}`,
    `A ${inner} ${inner} 0 ${large} 0 ${point(inner, from)}`,
    'Z',
  ].join(' ');
}

function drawRegion(doc: Doc, region: FaceRegionId, left: number, top: number, size: number): Doc {
  for (const polygon of FACE_REGION_TEMPLATE[region]) {
    const [first, ...rest] = polygon;
    if (!first) continue;
    doc.moveTo(left + first[0] * size, top + first[1] * size);
    for (const [x, y] of rest) doc.lineTo(left + x * size, top + y * size);
    doc.closePath();
  }
  return doc;
}

function traitsPage(doc: Doc, result: ReportResult): void {
  heading(doc, 'Facial traits with supporting regions');
  const faceLeft = PAGE_MARGIN;
  const faceTop = doc.y + 5;
  const faceSize = 200;
  // Schematic face; regions that move the estimate are tinted by their attribution weight.
  drawRegion(doc, 'face_oval', faceLeft, faceTop, faceSize).lineWidth(1.2).stroke(MUTED);
  for (const attribution of result.attributions?.regions ?? []) {
    const opacity = Math.min(0.85, 0.15 + attribution.weight * 1.5);
    drawRegion(doc, attribution.id, faceLeft, faceTop, faceSize)
      .fillOpacity(opacity)
      .fill(attribution.direction === 'supports' ? ACCENT : '#f59e0b');
    doc.fillOpacity(1);
  }
  for (const trait of result.traits) drawRegion(doc, trait.region.id, faceLeft, faceTop, faceSize).lineWidth(0.8).stroke(INK);

  const textLeft = faceLeft + faceSize + 25;
  const textWidth = doc.page.width - PAGE_MARGIN - textLeft;
  doc.y = faceTop;
  for (const trait of result.traits) {
    doc
      .fillColor(INK)
      .font('Helvetica-Bold')
      .fontSize(10)
      .text(pdfSafeText(`${trait.label} - ${trait.region.label}`), textLeft, doc.y, { width: textWidth });
    doc.fillColor(INK).font('Helvetica').fontSize(9).text(pdfSafeText(trait.description), textLeft, doc.y, { width: textWidth });
    doc.moveDown(0.4);
  }
  doc.x = PAGE_MARGIN;
  doc.y = Math.max(doc.y, faceTop + faceSize + 20);
  if (result.attributions) {
    heading(doc, 'What shaped the estimate', 15);
    const barLeft = PAGE_MARGIN + 150;
    for (const region of result.attributions.regions) {
      const y = doc.y;
      doc.fillColor(INK).font('Helvetica').fontSize(10).text(pdfSafeText(region.label), PAGE_MARGIN, y, { width: 145, lineBreak: false });
      doc.rect(barLeft, y + 1, 200 * region.weight, 8).fill(region.direction === 'supports' ? ACCENT : '#f59e0b');
      doc
        .fillColor(MUTED)
        .fontSize(9)
        .text(`${Math.round(region.weight * 100)}% ${region.direction}`, barLeft + 210, y, { lineBreak: false });
      doc.x = PAGE_MARGIN;
      doc.y = y + 16;
    }
  }
}

function culturalPage(doc: Doc, result: ReportResult): void {
  heading(doc, 'Cultural Insights');
  for (const insight of result.culturalInsights) {
    heading(doc, insight.title, 13);
    body(doc, insight.overview);
    body(doc, `Regions: ${insight.regions.join(', ')}`);
    body(doc, `Languages: ${insight.languages.join(', ')}`);
    body(doc, `Traditions: ${insight.traditions.join('; ')}`);
    body(doc, `Cuisine: ${insight.cuisine.join(', ')}`);
    note(doc, insight.diversityNote);
    note(doc, `Sources: ${insight.sources.map((source) => source.name).join('; ')}`);
    doc.moveDown();
  }
  populationSection(doc, result);
}

function populationPage(doc: Doc, result: ReportResult): void {
  heading(doc, 'Population');
  populationSection(doc, result);
}

function populationSection(doc: Doc, result: ReportResult): void {
  heading(doc, 'Population insights', 13);
  for (const group of result.population.groups) {
    const label = result.heritage.groups.find((share) => share.id === group.id)?.label ?? group.id;
    body(doc, `${label}: ${group.topCountries.map((country) => `${country.name} (${formatPopulation(country.population)})`).join(', ')}`);
    note(doc, group.caveat);
  }
  note(doc, `Source: ${result.population.source.name} (${result.population.source.licence})`);
}

function formatPopulation(value: number): string {
  return value >= 1_000_000 ? `${(value / 1_000_000).toFixed(1)} M` : value.toLocaleString('en-US');
}
