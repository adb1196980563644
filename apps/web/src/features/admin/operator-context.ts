import type { OperatorMe, OperatorPermission } from '@roots/contracts/admin';
import { createContext, useContext } from 'react';

/** The signed-in operator (role and permissions) for the console's screens; null outside the console. */
export const OperatorContext = createContext<OperatorMe | null>(null);

/**
 * Whether the signed-in operator's role allows `permission` (ROLE_PERMISSIONS): the console hides
 * what the role cannot do; the server refuses it anyway (403 'operator-role-forbidden').
 */
export function useCan(permission: OperatorPermission): boolean {
  return useContext(OperatorContext)?.permissions.includes(permission) ?? false;
}
