import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const SERVER_URL = process.env.ROOTS_SERVER_URL ?? 'http://127.0.0.1:3000';
const SLUG = process.env.PRODUCT_SLUG ?? 'roots';

/**
 * The build is slug-independent: assets are referenced relative to a <base href="/{slug}/"> that
 * the server injects into index.html, so one build serves any configured product slug.
 */
export default defineConfig(({ command }) => ({
  base: command === 'build' ? './' : `/${SLUG}/`,
  plugins: [react()],
  build: {
    outDir: 'dist',
    assetsDir: 'assets',
    sourcemap: true,
    target: 'es2022',
  },
  server: {
    proxy: {
      '/api': SERVER_URL,
      '/healthz': SERVER_URL,
    },
  },
}));
