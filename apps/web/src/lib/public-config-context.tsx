import type { PublicConfig } from '@roots/contracts';
import { createContext, useContext, type ReactNode } from 'react';

const PublicConfigContext = createContext<PublicConfig | null>(null);

export function PublicConfigProvider({ config, children }: { config: PublicConfig; children: ReactNode }) {
  return <PublicConfigContext.Provider value={config}>{children}</PublicConfigContext.Provider>;
}

/** The deployment's public configuration (slug, product name, copy, links). */
export function usePublicConfig(): PublicConfig {
  const config = useContext(PublicConfigContext);
  if (!config) throw new Error('usePublicConfig must be used inside PublicConfigProvider');
  return config;
}
