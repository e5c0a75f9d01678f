import type { RequestHandler } from 'express';
import { A2A_ERROR_CODE } from '@a2a-js/sdk/errors';
import { z } from 'zod';

// JSON-RPC 2.0 answers a body that is JSON but not a Request object with -32600 (Invalid Request).
// The SDK's 1.0 handler reports it as -32602 (its malformed-request error), its 0.3 handler as
// -32600: checked here, every client gets the code JSON-RPC assigns.

const RequestId = z.union([z.string(), z.number().int(), z.null()]);

const JsonRpcRequest = z.object({
  jsonrpc: z.literal('2.0'),
  method: z.string().min(1),
  id: RequestId.optional(),
});

export function jsonRpcRequestOnly(): RequestHandler {
  return (req, res, next) => {
    if (req.method !== 'POST' || JsonRpcRequest.safeParse(req.body).success) return next();
    const id = RequestId.safeParse((req.body as { id?: unknown } | null)?.id);
    res.status(200).json({
      jsonrpc: '2.0',
      id: id.success ? id.data : null,
      error: { code: A2A_ERROR_CODE.INVALID_REQUEST, message: 'Invalid Request: send a JSON-RPC 2.0 request object ({"jsonrpc": "2.0", "id", "method", "params"}).' },
    });
  };
}
