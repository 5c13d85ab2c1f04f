import { defaultClientConditions, defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// Served by the one server under /console (apps/server/src/console.ts); `npm run dev -w
// @sino/console` proxies the API to it so the refresh cookie stays same-origin.
export default defineConfig({
  base: '/console/',
  plugins: [react()],
  // Workspace packages (@sino/js's contrast check) are built from their sources.
  resolve: { conditions: ['source', ...defaultClientConditions] },
  build: {
    outDir: process.env.CONSOLE_OUT_DIR ?? 'dist',
    emptyOutDir: true,
    sourcemap: false,
    // The console's policy allows no inline script: Vite's module-preload polyfill is bundled.
    modulePreload: { polyfill: true },
    // Providers' logos stay files of the console's origin (immutable, cached once), not data:
    // URIs inside the integrations chunk (decision 059); other assets keep Vite's rule.
    assetsInlineLimit: (file) => (file.includes('/sino-providers/logos/') ? false : undefined),
  },
  server: {
    proxy: {
      '/v1': 'http://localhost:3000',
      // The preview frame (decision 063) is the server's too.
      '/console/frame': { target: 'http://localhost:3000', changeOrigin: false },
      '/socket.io': { target: 'ws://localhost:3000', ws: true },
    },
  },
});
