import { postJson } from '../../../lib/api-client';

/**
 * Apple-type merchant validation through this site's server (product-spec §7
 * `POST /api/apple-pay/validate-merchant`): the merchant session object the wallet sheet needs.
 */
export async function validateApplePayMerchant(input: { validationURL: string; domain: string }): Promise<unknown> {
  const answer = await postJson<{ data: unknown }>('/api/apple-pay/validate-merchant', input);
  return answer.data;
}
