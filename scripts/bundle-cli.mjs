// Bundles the CLI into one file. Resolving and loading ~150 separate modules (zod alone is
// ~95) cost ~130 ms of a ~450 ms cold start here; one file cuts that. Native and lazily
// loaded packages stay external: better-sqlite3 is a native addon, the provider SDKs
// are imported only when a model of theirs is first called, and the OpenTelemetry SDK only
// when an OTLP endpoint is set. (@opentelemetry/api is bundled: an external one would be
// imported at startup, since esbuild hoists the static imports of lazily loaded modules.)
import { build } from 'esbuild';

await build({
  entryPoints: ['dist/cli/main.js'],
  outfile: 'dist/cli/syndicate.mjs',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  external: [
    'better-sqlite3',
    '@ai-sdk/*',
    'ollama-ai-provider-v2',
    'ai',
    '@opentelemetry/sdk-trace',
    '@opentelemetry/exporter-trace-otlp-http',
    '@opentelemetry/resources',
  ],
  // Bundled CommonJS dependencies call require(); ESM output has none of its own.
  banner: { js: "import { createRequire as __syndicateRequire } from 'node:module'; const require = __syndicateRequire(import.meta.url);" },
  logLevel: 'warning',
});
