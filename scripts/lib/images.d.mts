export type ImageFigures = { ref: string; seconds: number; cached: boolean; bytes: number };
/** Builds the Debian base, the Node runtime, PostgreSQL and the three service images (ADR 177). */
export function buildImages(options?: {
  prefix?: string;
  tag?: string;
  log?: (message: string) => void;
}): Promise<Record<string, ImageFigures>>;
/** Runs podman with the project's containers.conf; with `capture`, resolves with its standard output. */
export function podman(args: string[], options?: { capture?: boolean; quiet?: boolean }): Promise<string>;
/** The environment podman runs with (CONTAINERS_CONF = ops/podman/containers.conf). */
export function podmanEnv(): NodeJS.ProcessEnv;
export function imageExists(ref: string): boolean;
