import { APICallError } from '@ai-sdk/provider';

export type SimulatedError = 'rate_limit' | 'server' | 'timeout';

const URL = 'scripted://scripted';

/** Throws what a real provider would, so retry and failure paths can be exercised offline. */
export function throwSimulatedError(kind: SimulatedError, agentName: string): never {
  switch (kind) {
    case 'rate_limit':
      throw new APICallError({
        message: `Rate limit exceeded (simulated by the scripted model for agent '${agentName}')`,
        url: URL,
        requestBodyValues: {},
        statusCode: 429,
        responseHeaders: { 'retry-after': '1' },
        isRetryable: true,
      });
    case 'server':
      throw new APICallError({
        message: `Internal server error (simulated by the scripted model for agent '${agentName}')`,
        url: URL,
        requestBodyValues: {},
        statusCode: 500,
        isRetryable: true,
      });
    case 'timeout': {
      const error = new Error(`The scripted model simulated a timeout for agent '${agentName}'`);
      error.name = 'TimeoutError';
      throw error;
    }
  }
}
