// Malformed params of a request the server serves are the caller's mistake (-32602), not a server failure.
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  InitializeRequestSchema,
  isJSONRPCRequest,
  ListToolsRequestSchema,
  PingRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';

/** The requests this server answers, by method, with the SDK's own schema of each. */
const SERVED = new Map(
  [CallToolRequestSchema, InitializeRequestSchema, ListToolsRequestSchema, PingRequestSchema].map((schema) => [
    schema.shape.method.value as string,
    schema,
  ]),
);

/**
 * The SDK parses a request with its schema inside the handler and reports a failure as -32603 Internal error with
 * the schema's issues as text (e.g. `tools/call` whose `arguments` is a string). This checks the same schema first
 * and answers -32602 Invalid params, naming the fields. Call after `server.connect(transport)`, which sets
 * `onmessage`. Other methods pass untouched (the SDK answers an unknown one with -32601).
 */
export function answerMalformedRequests(transport: Transport): void {
  const deliver = transport.onmessage;
  transport.onmessage = (message, extra) => {
    const schema = isJSONRPCRequest(message) ? SERVED.get(message.method) : undefined;
    if (schema && isJSONRPCRequest(message)) {
      const parsed = schema.safeParse({ method: message.method, params: message.params });
      if (!parsed.success) {
        const fields = [...new Set(parsed.error.issues.map((i) => ['params', ...i.path.slice(1)].join('.')))];
        const text = `Invalid params for ${message.method}: ${fields.join(', ')}`;
        void transport.send({
          jsonrpc: '2.0',
          id: message.id,
          error: { code: ErrorCode.InvalidParams, message: text },
        });
        return;
      }
    }
    deliver?.(message, extra);
  };
}
