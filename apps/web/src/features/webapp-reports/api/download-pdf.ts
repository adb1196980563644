import { request } from '../../../lib/api-client';

/** The file name the server suggests in `content-disposition`, or a fallback. */
export function fileNameOf(disposition: string | null, fallback: string): string {
  return /filename="([^"]+)"/.exec(disposition ?? '')?.[1] ?? fallback;
}

/**
 * POST /pdf-report/content for one completed report (the session proves ownership, ADR 075) and
 * hands the PDF to the browser as a download.
 */
export async function downloadReportPdf(reportId: string): Promise<void> {
  const response = await request('/pdf-report/content', { method: 'POST', body: { report_id: reportId } });
  const url = URL.createObjectURL(await response.blob());
  try {
    const link = document.createElement('a');
    link.href = url;
    link.download = fileNameOf(response.headers.get('content-disposition'), `report-${reportId}.pdf`);
    document.body.append(link);
    link.click();
    link.remove();
  } finally {
    // Let the download start before the object URL goes.
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  }
}
