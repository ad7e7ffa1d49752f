import { defineConfig } from "vitest/config";
import react from "@vitejs/plugin-react";

// The desktop shell loads dist/ (tauri.conf.json frontendDist); `npm run dev` serves the
// UI on 127.0.0.1:1420 for the shell's dev mode.
export default defineConfig({
  plugins: [react()],
  clearScreen: false,
  server: { host: "127.0.0.1", port: 1420, strictPort: true },
  build: { target: "safari15", outDir: "dist", chunkSizeWarningLimit: 2000 },
  test: { environment: "node" },
});
