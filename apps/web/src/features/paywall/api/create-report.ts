import { postJson } from '../../../lib/api-client';

/** Base64 of a blob, without the data-URL prefix. */
async function toBase64(blob: Blob): Promise<string> {
  const bytes = new Uint8Array(await blob.arrayBuffer());
  let binary = '';
  const chunk = 0x8000;
  for (let i = 0; i < bytes.length; i += chunk) binary += String.fromCharCode(...bytes.subarray(i, i + chunk));
  return btoa(binary);
}

/** POST report/create with the selfie (product-spec §7); the server analyses it in memory and drops it. */
export async function createReport(body: { email: string; subscriptionId: string; image: Blob }): Promise<{ report_id: string }> {
  return postJson('/report/create', { email: body.email, subscription_id: body.subscriptionId, image: await toBase64(body.image) });
}
