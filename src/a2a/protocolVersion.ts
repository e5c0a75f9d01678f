import type { RequestHandler } from 'express';
import { A2A_VERSION_HEADER, type AgentCard } from '@a2a-js/sdk';
import { toJsonRpcError, VersionNotSupportedError } from '@a2a-js/sdk/errors';
import { getSupportedVersions } from '@a2a-js/sdk/server';
import type { Warn } from './rateLimitedWarning.js';

// The SDK's JSON-RPC handler refuses an unsupported A2A-Version correctly (-32009) but logs the
// error's whole stack on every request. Refused here instead, before it, with the same answer and
// one warning line (rate limited by the caller's Warn).

// What the SDK reads a request without the header as: a 0.3 client.
export const ABSENT_HEADER_VERSION = '0.3';

export function supportedJsonRpcVersionOnly(card: AgentCard, warn: Warn): RequestHandler {
  const supported = getSupportedVersions(card, 'JSONRPC');
  const listed = [...supported].join(', ');
  return (req, res, next) => {
    const version = req.header(A2A_VERSION_HEADER) || ABSENT_HEADER_VERSION;
    if (supported.has(version)) return next();
    warn(`warning: refused an A2A JSON-RPC request for protocol version ${JSON.stringify(version.slice(0, 40))} (this server speaks ${listed})`);
    const error = new VersionNotSupportedError(`The requested A2A protocol version '${version}' is not supported. Supported versions: ${listed}`);
    const id = (req.body as { id?: unknown }).id ?? null;
    res.status(200).json({ jsonrpc: '2.0', id, error: toJsonRpcError(error) });
  };
}
