import type { MerchantValidationResponse } from '@roots/contracts/gateway';
import { postJson } from '../../../lib/api-client';

/**
 * Apple-type merchant validation through this site's server (product-spec §7
 * `POST /api/apple-pay/validate-merchant`): the merchant session object the wallet sheet needs. The
 * paywall's calls are typed by the contracts but not parsed: zod stays out of the paywall's bundle.
 */
export async function validateApplePayMerchant(input: { validationURL: string; domain: string }): Promise<unknown> {
  const answer = await postJson<MerchantValidationResponse>('/api/apple-pay/validate-merchant', input);
  return answer.data;
}
