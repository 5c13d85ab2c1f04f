import { defaultClientConditions, defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// The API runs on the one server (`npm start`, port 3000); `npm run dev -w @locadora/web` proxies
// to it so the refresh cookie stays same-origin.
export default defineConfig({
  plugins: [react()],
  // Workspace packages (the @sino/* inbox) are built from their sources, like the server runs them.
  resolve: { conditions: ['source', ...defaultClientConditions] },
  build: {
    outDir: process.env.WEB_OUT_DIR ?? 'dist',
    emptyOutDir: true,
    sourcemap: false,
    chunkSizeWarningLimit: 600,
  },
  server: {
    proxy: { '/api': 'http://localhost:3000' },
  },
});
