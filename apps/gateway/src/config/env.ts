import { z } from 'zod';

const port = z.coerce.number().int().min(0).max(65535);

/** Every environment variable the gateway sandbox reads; documented in `.env.example`. */
export const gatewayEnvSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  GATEWAY_HOST: z.string().min(1).default('127.0.0.1'),
  GATEWAY_PORT: port.default(4000),
  /** Public origin of the gateway (the secure frames' origin); defaults to http://GATEWAY_HOST:GATEWAY_PORT. */
  GATEWAY_PUBLIC_URL: z.url().optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

export type GatewayConfig = z.infer<typeof gatewayEnvSchema> & { publicUrl: string };

export class GatewayConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'GatewayConfigError';
  }
}

export function loadGatewayConfig(source: NodeJS.ProcessEnv = process.env): GatewayConfig {
  const raw = Object.fromEntries(Object.entries(source).filter(([, value]) => value !== undefined && value !== ''));
  const parsed = gatewayEnvSchema.safeParse(raw);
  if (!parsed.success) {
    throw new GatewayConfigError(parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`));
  }
  const env = parsed.data;
  return { ...env, publicUrl: (env.GATEWAY_PUBLIC_URL ?? `http://${env.GATEWAY_HOST}:${env.GATEWAY_PORT}`).replace(/\/$/, '') };
}
