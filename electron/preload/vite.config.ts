import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

// One CommonJS file with only `electron` left external: what a sandboxed preload may load.
export default defineConfig({
  build: {
    outDir: fileURLToPath(new URL('../../dist/electron/preload', import.meta.url)),
    emptyOutDir: false, // tsc -b writes the typed modules here too
    minify: false,
    lib: { entry: fileURLToPath(new URL('./index.ts', import.meta.url)), formats: ['cjs'], fileName: () => 'index.cjs' },
    rollupOptions: { external: ['electron'] },
  },
});
