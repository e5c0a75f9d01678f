import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli, tempDir } from '../cli/cli.js';
import { OTLP_KIND, receivedNodes, startOtlpReceiver, type OtlpReceiver } from './otlpReceiver.js';
import { renderTree } from './spanTree.js';

// The built CLI (npm run build) as a child process, exporting to a loopback receiver: proves
// the spans are flushed before the process exits.

const REPORT_OTEL_IMPORTS = fileURLToPath(new URL('./fixtures/reportOtelImports.mjs', import.meta.url));

const COUNCIL_RUN_TREE = [
  'invoke_agent Moderator',
  '  chat scripted',
  '  chat scripted',
  '  chat scripted',
  '  invoke_agent Advocate',
  '    chat scripted',
  '  invoke_agent Skeptic',
  '    chat scripted',
];

describe('the CLI with OTEL_EXPORTER_OTLP_ENDPOINT set', () => {
  let receiver: OtlpReceiver;
  let home: ReturnType<typeof tempDir>;

  beforeEach(async () => {
    receiver = await startOtlpReceiver();
    home = tempDir('otel');
  });

  afterEach(async () => {
    home.remove();
    await receiver.close();
  });

  it('exports the span tree of `syndicate run` before it exits', async () => {
    const env = { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint, OTEL_SERVICE_NAME: 'syndicate-cli-test' };

    const result = await runCli(['run', 'council', 'Adopt a four-day week.', '--offline', '--new-session', 'otel-run'], { home: home.path, env });

    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).not.toContain('warning');
    const spans = receiver.spans;
    expect(renderTree(receivedNodes(spans))).toEqual(COUNCIL_RUN_TREE);
    const root = spans.find((span) => span.name === 'invoke_agent Moderator')!;
    expect(root.kind).toBe(OTLP_KIND.internal);
    expect(root.resource['service.name']).toBe('syndicate-cli-test');
    const agents = spans.filter((span) => span.attributes['gen_ai.operation.name'] === 'invoke_agent');
    expect(agents.map((span) => span.attributes['gen_ai.conversation.id'])).toEqual(agents.map(() => 'otel-run'));
  });

  it('exports one trace per `syndicate chat` turn, all in the same conversation', async () => {
    const env = { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint };

    const result = await runCli(['chat', 'council', '--offline', '--new-session', 'otel-chat'], { home: home.path, env, input: 'First claim.\nSecond claim.\n' });

    expect(result.code, result.stderr).toBe(0);
    const roots = receiver.spans.filter((span) => span.name === 'invoke_agent Moderator');
    expect(roots).toHaveLength(2);
    expect(new Set(roots.map((span) => span.traceId)).size).toBe(2);
    expect(roots.map((span) => span.attributes['gen_ai.conversation.id'])).toEqual(['otel-chat', 'otel-chat']);
    expect(roots.map((span) => span.resource['service.name'])).toEqual(['syndicate', 'syndicate']);
  });

  it('imports no OpenTelemetry package without an endpoint, and with one imports the SDK', async () => {
    const env = { NODE_OPTIONS: `--import=${REPORT_OTEL_IMPORTS}` };

    const off = await runCli(['run', 'council', 'Adopt a four-day week.', '--offline'], { home: home.path, env });
    const on = await runCli(['run', 'council', 'Adopt a four-day week.', '--offline'], { home: home.path, env: { ...env, OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint } });

    expect(off.code, off.stderr).toBe(0);
    expect(off.stderr).not.toContain('otel-import');
    expect(on.stderr).toContain('otel-import');
    expect(on.stderr).toContain('/@opentelemetry/sdk-trace/');
  });
});
