/** Starts a throw-away PostgreSQL cluster on loopback (initdb + pg_ctl in a temp dir). */
export function startPostgresCluster(): Promise<{ url: string; stop(): void }>;
