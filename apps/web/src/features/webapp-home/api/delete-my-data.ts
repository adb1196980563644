import { deleteAccountResponseSchema } from '@roots/contracts/account';
import { sendParsed } from '../../../lib/api-client';

/** `DELETE /api/account`: the account, its sessions, profile and reports are gone (purchases stay as the accounting record). */
export async function deleteMyData(): Promise<void> {
  await sendParsed('DELETE', '/api/account', undefined, deleteAccountResponseSchema);
}
