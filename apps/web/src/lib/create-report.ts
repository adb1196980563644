import type { FaceBox } from '@roots/contracts/face-check';
import type { ReportCreateResponse } from '@roots/contracts/reports';
import { postJson } from './api-client';

/** Base64 of a blob, without the data-URL prefix. */
async function toBase64(blob: Blob): Promise<string> {
  const bytes = new Uint8Array(await blob.arrayBuffer());
  let binary = '';
  const chunk = 0x8000;
  for (let i = 0; i < bytes.length; i += chunk) binary += String.fromCharCode(...bytes.subarray(i, i + chunk));
  return btoa(binary);
}

/** Who the report is for: the funnel names the purchase it just paid; the signed-in app names nobody. */
export type ReportOwner = { email: string; subscriptionId: string } | { signedIn: true };

/**
 * POST report/create with the selfie (product-spec §7); the server analyses it in memory and drops
 * it. The funnel sends the purchase with its email; the signed-in app sends neither, and the server
 * makes the report under the user's newest purchase that includes reports (ADR 145). `face`: the
 * face the customer chose in a group photo, the only one analysed (ADR 192).
 */
export async function createReport(owner: ReportOwner, image: Blob, face?: FaceBox): Promise<ReportCreateResponse> {
  const purchase = 'email' in owner ? { email: owner.email, subscription_id: owner.subscriptionId } : {};
  return postJson('/report/create', { ...purchase, image: await toBase64(image), ...(face ? { face } : {}) });
}
