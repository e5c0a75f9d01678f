// Bundles the CLI into one file. Resolving and loading ~150 separate modules (zod alone is
// ~95) cost ~130 ms of a ~450 ms cold start here; one file cuts that. Native and lazily
// loaded packages stay external: better-sqlite3 is a native addon, the provider SDKs
// are imported only when a model of theirs is first called, and the OpenTelemetry SDK only
// when an OTLP endpoint is set. (@opentelemetry/api is bundled: an external one would be
// imported at startup, since esbuild hoists the static imports of lazily loaded modules.)
import { build } from 'esbuild';

await build({
  entryPoints: { syndicate: 'dist/cli/main.js' },
  outdir: 'dist/cli',
  outExtension: { '.js': '.mjs' },
  // Each command's module (and what only it uses: the MCP and A2A SDKs, the memory layer) goes in
  // its own chunk, loaded when the command runs: one 6 MB file cost ~200 ms to parse on every start.
  splitting: true,
  // Beside the entry: modules locate the package from their own URL (see resolveSyndicateFile.ts).
  chunkNames: '[name]-[hash]',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  external: [
    'better-sqlite3',
    // Only a PostgreSQL store loads it (and its optional pg-native).
    'pg',
    // Likewise: only a PostgreSQL store starts the shared work queue.
    'pg-boss',
    '@ai-sdk/*',
    'ollama-ai-provider-v2',
    'ai',
    '@opentelemetry/sdk-trace',
    '@opentelemetry/exporter-trace-otlp-http',
    '@opentelemetry/resources',
    // TensorFlow.js (inside the local embedder) reads __dirname, which a bundled ESM file lacks.
    '@energetic-ai/*',
  ],
  // Bundled CommonJS dependencies call require(); ESM output has none of its own.
  banner: { js: "import { createRequire as __syndicateRequire } from 'node:module'; const require = __syndicateRequire(import.meta.url);" },
  logLevel: 'warning',
});
