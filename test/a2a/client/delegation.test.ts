import { afterEach, describe, expect, it } from 'vitest';
import { a2aRemoteAgents } from '../../../src/a2a/client/index.js';
import { openSqliteStore } from '../../../src/store/sqlite/index.js';
import { agent, collect, compile, ofType, recordCalls, tempDbPath, turnEnd, type ModelCall } from '../../runtime/fixtures.js';
import { chairWith, LOOPBACK_ALLOWED, remoteSubagent } from './fixtures.js';
import { startLegacyServer } from './legacyServer.js';
import { startRemoteServer, type Binding, type RemoteServer, type RemoteServerOptions } from './remoteServer.js';

let server: RemoteServer | undefined;

afterEach(async () => {
  await server?.stop();
  server = undefined;
});

async function remote(options: RemoteServerOptions): Promise<RemoteServer> {
  server = await startRemoteServer(options);
  return server;
}

const sunny = (): RemoteServerOptions['reply'] => () => ({ kind: 'answer', progress: ['Looking at the sky.'], chunks: ['Sunny ', 'and 24°C.'] });

describe.each<Binding>(['JSONRPC', 'HTTP+JSON'])('a remote agent over %s', (binding) => {
  it('answers a delegation, and the orchestrator uses its answer', async () => {
    const weather = await remote({ bindings: [binding], reply: sunny() });
    const syndicate = chairWith(remoteSubagent('Weather', { cardUrl: weather.cardUrl }));

    const events = await collect(syndicate, { input: 'Weather in Lyon?' });

    expect(weather.received.map((message) => message.text)).toEqual(['Weather in Lyon?']);
    expect(ofType(events, 'delegation-end')).toMatchObject([{ to: 'Weather', output: 'Sunny and 24°C.', isError: false }]);
    expect(turnEnd(events)).toMatchObject({ status: 'completed', output: expect.stringContaining('Weather: Sunny and 24°C.') });
  });
});

describe('a remote agent as a subagent', () => {
  it("is offered to its parent with the remote card's description when the file gives none", async () => {
    const weather = await remote({ description: 'Forecasts the weather for any city.', reply: sunny() });
    const calls: ModelCall[] = [];
    const syndicate = chairWith(remoteSubagent('Weather', { cardUrl: weather.cardUrl }), { resolveModel: recordCalls(calls) });

    await collect(syndicate, { input: 'Weather in Lyon?' });

    expect(calls[0]?.options.tools).toContainEqual(expect.objectContaining({ name: 'Weather', description: 'Forecasts the weather for any city.' }));
  });

  it("is offered with the file's description when the file gives one", async () => {
    const weather = await remote({ description: 'From the card.', reply: sunny() });
    const calls: ModelCall[] = [];
    const syndicate = chairWith(remoteSubagent('Weather', { cardUrl: weather.cardUrl, description: 'From the file.' }), { resolveModel: recordCalls(calls) });

    await collect(syndicate, { input: 'Weather in Lyon?' });

    expect(calls[0]?.options.tools).toContainEqual(expect.objectContaining({ name: 'Weather', description: 'From the file.' }));
  });

  it("reports the remote agent's progress as status events naming it, and streams its answer as its text", async () => {
    const weather = await remote({ streaming: true, reply: () => ({ kind: 'answer', progress: ['Reading the barometer.', 'Asking the satellites.'], chunks: ['Sunny ', 'and warm.'] }) });
    const syndicate = chairWith(remoteSubagent('Weather', { cardUrl: weather.cardUrl }));

    const events = await collect(syndicate, { input: 'Weather in Lyon?' });

    expect(ofType(events, 'status').map(({ agent, depth, message }) => ({ agent, depth, message }))).toEqual([
      { agent: 'Weather', depth: 1, message: 'Remote agent Weather: Reading the barometer.' },
      { agent: 'Weather', depth: 1, message: 'Remote agent Weather: Asking the satellites.' },
    ]);
    expect(ofType(events, 'text-delta').filter((event) => event.agent === 'Weather').map((event) => event.delta)).toEqual(['Sunny ', 'and warm.']);
    expect(ofType(events, 'message').filter((event) => event.agent === 'Weather').map((event) => event.text)).toEqual(['Sunny and warm.']);
  });

  it('gets the whole answer at once from an agent whose card does not offer streaming', async () => {
    const weather = await remote({ streaming: false, reply: () => ({ kind: 'answer', chunks: ['Sunny ', 'and warm.'] }) });
    const syndicate = chairWith(remoteSubagent('Weather', { cardUrl: weather.cardUrl }));

    const events = await collect(syndicate, { input: 'Weather in Lyon?' });

    expect(ofType(events, 'delegation-end')).toMatchObject([{ to: 'Weather', isError: false, output: expect.stringContaining('Sunny') }]);
  });

  it('keeps one remote context per session, so the remote conversation continues across turns', async () => {
    const weather = await remote({ reply: sunny() });
    const syndicate = chairWith(remoteSubagent('Weather', { cardUrl: weather.cardUrl }));

    await collect(syndicate, { input: 'Weather in Lyon?', sessionId: 'session-a' });
    await collect(syndicate, { input: 'And tomorrow?', sessionId: 'session-a' });
    await collect(syndicate, { input: 'Weather in Oslo?', sessionId: 'session-b' });

    const [first, second, other] = weather.received;
    expect(second?.contextId).toBe(first?.contextId);
    expect(other?.contextId).not.toBe(first?.contextId);
  });

  it('reports a remote task that failed as the delegation failing, with the remote reason', async () => {
    const weather = await remote({ reply: () => ({ kind: 'fail', reason: 'The satellites are down.' }) });
    const syndicate = chairWith(remoteSubagent('Weather', { cardUrl: weather.cardUrl }));

    const events = await collect(syndicate, { input: 'Weather in Lyon?' });

    expect(ofType(events, 'delegation-end')).toMatchObject([{ to: 'Weather', isError: true, output: "Weather failed: the remote agent's task failed: The satellites are down." }]);
  });
});

describe('a remote agent as a plan-dispatch route', () => {
  it('answers the user itself when the turn is routed to it', async () => {
    const weather = await remote({ reply: sunny() });
    const dispatch = { default_route: 'Weather', route_overrides: [{ route: 'Weather', pattern: 'weather', reason: 'asks about the weather' }] };
    const syndicate = chairWith(remoteSubagent('Weather', { cardUrl: weather.cardUrl }), {}, { dispatch });

    const events = await collect(syndicate, { input: 'Weather in Lyon?' });

    expect(ofType(events, 'route')).toMatchObject([{ route: 'Weather', source: 'override' }]);
    expect(turnEnd(events)).toMatchObject({ status: 'completed', output: 'Sunny and 24°C.' });
  });
});

describe('a remote agent that needs more input', () => {
  const asksForCity = (): RemoteServerOptions['reply'] => (text) => (text.includes('Lyon') ? { kind: 'answer', chunks: ['Sunny in Lyon.'] } : { kind: 'ask', question: 'Which city do you mean?' });

  it('ends our turn waiting for the user, with the remote question as its output, as ask_user does', async () => {
    const weather = await remote({ reply: asksForCity() });
    const syndicate = chairWith(remoteSubagent('Weather', { cardUrl: weather.cardUrl }));

    const events = await collect(syndicate, { input: 'What is the weather?', sessionId: 'asks' });

    expect(turnEnd(events)).toMatchObject({ status: 'input-required', output: 'Which city do you mean?' });
    expect(turnEnd(events).error).toBeUndefined();
    expect(ofType(events, 'message').at(-1)).toMatchObject({ agent: 'Weather', depth: 1, text: 'Which city do you mean?' });
    expect(ofType(events, 'delegation-end')).toEqual([]);
  });

  it('records the remote context and the waiting task in the session', async () => {
    const weather = await remote({ reply: asksForCity() });
    const syndicate = chairWith(remoteSubagent('Weather', { cardUrl: weather.cardUrl }));

    const events = await collect(syndicate, { input: 'What is the weather?', sessionId: 'asks' });

    const [asked] = weather.received;
    expect(ofType(events, 'remote-conversation')).toMatchObject([{ agent: 'Weather', contextId: asked?.contextId, waitingTaskId: asked?.taskId }]);
  });

  it("continues the same remote task with the session's next request", async () => {
    const weather = await remote({ reply: asksForCity() });
    const syndicate = chairWith(remoteSubagent('Weather', { cardUrl: weather.cardUrl }));

    await collect(syndicate, { input: 'What is the weather?', sessionId: 'asks' });
    const events = await collect(syndicate, { input: 'Lyon', sessionId: 'asks' });

    const [question, answer] = weather.received;
    expect(answer).toMatchObject({ continuedTaskId: question?.taskId, taskId: question?.taskId, contextId: question?.contextId });
    expect(ofType(events, 'delegation-end')).toMatchObject([{ to: 'Weather', output: 'Sunny in Lyon.' }]);
    expect(turnEnd(events)).toMatchObject({ status: 'completed', output: expect.stringContaining('Weather: Sunny in Lyon.') });
  });

  it('continues the same remote task from the stored session, in a process that never saw the question', async () => {
    const weather = await remote({ reply: asksForCity() });
    const store = openSqliteStore(tempDbPath());
    try {
      await collect(chairWith(remoteSubagent('Weather', { cardUrl: weather.cardUrl })), { input: 'What is the weather?', sessionId: 'stored', store });
      // A new compile holds no conversation in memory, as the next `syndicate run --session` would.
      const events = await collect(chairWith(remoteSubagent('Weather', { cardUrl: weather.cardUrl })), { input: 'Lyon', sessionId: 'stored', store });

      const [question, answer] = weather.received;
      expect(answer).toMatchObject({ continuedTaskId: question?.taskId, contextId: question?.contextId });
      expect(turnEnd(events)).toMatchObject({ status: 'completed', output: expect.stringContaining('Weather: Sunny in Lyon.') });
    } finally {
      await store.close();
    }
  });

  it('starts a new remote task after a continuation that failed', async () => {
    let received = 0;
    const weather = await remote({ reply: () => [{ kind: 'ask', question: 'Which city do you mean?' } as const, { kind: 'fail', reason: 'The task expired.' } as const][received++] ?? { kind: 'answer', chunks: ['Sunny.'] } });
    const syndicate = chairWith(remoteSubagent('Weather', { cardUrl: weather.cardUrl }));

    await collect(syndicate, { input: 'What is the weather?', sessionId: 'expired' });
    const failed = await collect(syndicate, { input: 'Lyon', sessionId: 'expired' });
    await collect(syndicate, { input: 'Lyon, please', sessionId: 'expired' });

    const [question, continuation, fresh] = weather.received;
    expect(ofType(failed, 'delegation-end')).toMatchObject([{ to: 'Weather', isError: true, output: "Weather failed: the remote agent's task failed: The task expired." }]);
    expect(continuation).toMatchObject({ continuedTaskId: question?.taskId, taskId: question?.taskId });
    expect(fresh).toMatchObject({ continuedTaskId: '', contextId: question?.contextId });
    expect(fresh?.taskId).not.toBe(question?.taskId);
  });

  it('as a plan-dispatch route, gets the answer back whatever the classifier would route it to', async () => {
    const weather = await remote({ reply: asksForCity() });
    const routes = [agent('General', { description: 'Answers everything else.' }), remoteSubagent('Weather', { cardUrl: weather.cardUrl, description: 'Forecasts the weather for any city.' })];
    const syndicate = compile(agent('Desk', { subagents: routes, dispatch: { default_route: 'General' } }), { env: {}, remoteAgents: a2aRemoteAgents({ policy: LOOPBACK_ALLOWED }) });
    const store = openSqliteStore(tempDbPath());
    try {
      const unasked = await collect(syndicate, { input: 'Lyon', sessionId: 'unasked', store });
      const asked = await collect(syndicate, { input: 'What is the weather like?', sessionId: 'asked', store });
      const answered = await collect(syndicate, { input: 'Lyon', sessionId: 'asked', store });

      expect(ofType(unasked, 'route')).toMatchObject([{ route: 'General', source: 'classifier' }]);
      expect(turnEnd(asked)).toMatchObject({ status: 'input-required', output: 'Which city do you mean?' });
      expect(ofType(answered, 'route')).toMatchObject([{ route: 'Weather', source: 'continuation', reason: 'answers the question Weather asked' }]);
      expect(weather.received[1]).toMatchObject({ text: 'Lyon', continuedTaskId: weather.received[0]?.taskId });
      expect(turnEnd(answered)).toMatchObject({ status: 'completed', output: 'Sunny in Lyon.' });
    } finally {
      await store.close();
    }
  });
});

describe('cancelling our turn', () => {
  it('cancels the remote task', async () => {
    const weather = await remote({ reply: () => ({ kind: 'hang' }) });
    const syndicate = chairWith(remoteSubagent('Weather', { cardUrl: weather.cardUrl }));
    const controller = new AbortController();
    void weather.hanging.then(() => controller.abort());

    const events = await collect(syndicate, { input: 'Weather in Lyon?', signal: controller.signal });

    expect(turnEnd(events).status).toBe('cancelled');
    expect(weather.cancelled).toEqual([weather.received[0]?.taskId]);
  });
});

describe('the bearer token of a remote agent', () => {
  it('is read from the variable a2a_auth_env names and sent with every request', async () => {
    const weather = await remote({ token: 's3cret', reply: sunny() });
    const syndicate = chairWith(remoteSubagent('Weather', { cardUrl: weather.cardUrl, authEnv: 'WEATHER_TOKEN' }), { env: { WEATHER_TOKEN: 's3cret' } });

    const events = await collect(syndicate, { input: 'Weather in Lyon?' });

    expect(weather.received[0]?.authorization).toBe('Bearer s3cret');
    expect(ofType(events, 'delegation-end')).toMatchObject([{ to: 'Weather', isError: false, output: 'Sunny and 24°C.' }]);
  });

  it('fails the delegation naming the variable when it is not set', async () => {
    const weather = await remote({ token: 's3cret', reply: sunny() });
    const syndicate = chairWith(remoteSubagent('Weather', { cardUrl: weather.cardUrl, description: 'Forecasts.', authEnv: 'WEATHER_TOKEN' }), { env: {} });

    const events = await collect(syndicate, { input: 'Weather in Lyon?' });

    expect(ofType(events, 'delegation-end')).toMatchObject([{ to: 'Weather', isError: true, output: expect.stringContaining('the environment variable WEATHER_TOKEN (a2a_auth_env), which is not set') }]);
    expect(weather.received).toEqual([]);
  });

  it('fails the delegation with the HTTP status when the remote agent refuses it', async () => {
    const weather = await remote({ token: 's3cret', reply: sunny() });
    const syndicate = chairWith(remoteSubagent('Weather', { cardUrl: weather.cardUrl, authEnv: 'WEATHER_TOKEN' }), { env: { WEATHER_TOKEN: 'wrong' } });

    const events = await collect(syndicate, { input: 'Weather in Lyon?' });

    expect(ofType(events, 'delegation-end')).toMatchObject([{ to: 'Weather', isError: true, output: expect.stringContaining('answered HTTP 401 Unauthorized: check the token in WEATHER_TOKEN (a2a_auth_env)') }]);
  });
});

describe('a remote agent that cannot be reached', () => {
  async function closedCardUrl(): Promise<string> {
    const gone = await startRemoteServer({ reply: sunny() });
    await gone.stop();
    return gone.cardUrl;
  }

  it('is left out of the turn with a warning naming it and saying why, when its description comes from its card', async () => {
    const cardUrl = await closedCardUrl();
    const calls: ModelCall[] = [];
    const syndicate = chairWith(remoteSubagent('Weather', { cardUrl }), { resolveModel: recordCalls(calls) });

    const events = await collect(syndicate, { input: 'Weather in Lyon?' });

    expect(ofType(events, 'warning')).toMatchObject([{ agent: 'Chair', message: expect.stringMatching(/^The remote agent Weather is left out of this turn: could not fetch its agent card at .*ECONNREFUSED/) }]);
    expect(calls[0]?.options.tools ?? []).not.toContainEqual(expect.objectContaining({ name: 'Weather' }));
    expect(turnEnd(events).status).toBe('completed');
  });

  it('fails the delegation saying why, when the file describes it', async () => {
    const cardUrl = await closedCardUrl();
    const syndicate = chairWith(remoteSubagent('Weather', { cardUrl, description: 'Forecasts.' }));

    const events = await collect(syndicate, { input: 'Weather in Lyon?' });

    expect(ofType(events, 'delegation-end')).toMatchObject([{ to: 'Weather', isError: true, output: expect.stringMatching(/^Weather failed: could not fetch its agent card at .*ECONNREFUSED/) }]);
  });

  it('is tried again at the next turn when its card could not be fetched', async () => {
    const weather = await remote({ cardFailures: 1, reply: sunny() });
    const syndicate = chairWith(remoteSubagent('Weather', { cardUrl: weather.cardUrl }));

    const first = await collect(syndicate, { input: 'Weather in Lyon?' });
    const second = await collect(syndicate, { input: 'Weather in Lyon?' });

    expect(ofType(first, 'warning')).toMatchObject([{ message: expect.stringContaining('answered HTTP 503 Service Unavailable: check a2a_url') }]);
    expect(ofType(second, 'delegation-end')).toMatchObject([{ to: 'Weather', isError: false, output: 'Sunny and 24°C.' }]);
  });

  it('is refused on a loopback address unless private addresses are allowed', async () => {
    const weather = await remote({ reply: sunny() });
    const syndicate = chairWith(remoteSubagent('Weather', { cardUrl: weather.cardUrl, description: 'Forecasts.' }), { policy: { allowPrivate: false, allowedHosts: new Set() } });

    const events = await collect(syndicate, { input: 'Weather in Lyon?' });

    expect(ofType(events, 'delegation-end')).toMatchObject([{ to: 'Weather', isError: true, output: expect.stringContaining('is a loopback address, refused to protect this machine and its network; set ALLOW_PRIVATE_MCP=true') }]);
    expect(weather.received).toEqual([]);
  });

  it('is reached on a loopback address when ALLOW_PRIVATE_MCP=true is set', async () => {
    const weather = await remote({ reply: sunny() });
    const syndicate = chairWith(remoteSubagent('Weather', { cardUrl: weather.cardUrl }), { policy: 'from-env', env: { ALLOW_PRIVATE_MCP: 'true' } });

    const events = await collect(syndicate, { input: 'Weather in Lyon?' });

    expect(ofType(events, 'delegation-end')).toMatchObject([{ to: 'Weather', isError: false, output: 'Sunny and 24°C.' }]);
  });
});

describe('a remote agent that speaks A2A 0.3', () => {
  it('answers a delegation through the SDK compatibility layer', async () => {
    const legacy = await startLegacyServer('Cloudy, as in 0.3.');
    try {
      const syndicate = chairWith(remoteSubagent('Weather', { cardUrl: legacy.cardUrl }));

      const events = await collect(syndicate, { input: 'Weather in Lyon?' });

      expect(ofType(events, 'delegation-end')).toMatchObject([{ to: 'Weather', isError: false, output: 'Cloudy, as in 0.3.' }]);
    } finally {
      await legacy.stop();
    }
  });
});

describe('a syndicate compiled without the A2A client', () => {
  it('fails a consultation of its remote agent, saying what the program must pass', async () => {
    const syndicate = compile(agent('Chair', { subagents: [remoteSubagent('Weather', { cardUrl: 'https://weather.example.com', description: 'Forecasts.' })] }));

    const events = await collect(syndicate, { input: 'Weather in Lyon?' });

    expect(ofType(events, 'delegation-end')).toMatchObject([{ to: 'Weather', isError: true, output: expect.stringContaining('compiled the syndicate without an A2A client: pass remoteAgents: a2aRemoteAgents()') }]);
  });
});
