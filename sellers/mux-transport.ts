import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  isJSONRPCErrorResponse,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  type JSONRPCMessage,
  type MessageExtraInfo,
  type RequestId,
} from '@modelcontextprotocol/sdk/types.js';

/**
 * Lets one long-lived SDK server answer many stateless HTTP requests at once. Each request's id is
 * swapped for a unique one on the way in and restored on the way out, so two clients that both send
 * id 1 never meet. Built once per endpoint: no server or schema is constructed per request.
 */
export class MuxTransport implements Transport {
  onmessage?: (message: JSONRPCMessage, extra?: MessageExtraInfo) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;

  private counter = 0;
  private readonly pending = new Map<number, { id: RequestId; resolve: (m: JSONRPCMessage) => void }>();

  async start(): Promise<void> {}

  async close(): Promise<void> {
    this.onclose?.();
  }

  async send(message: JSONRPCMessage): Promise<void> {
    // Only answers to our requests have somewhere to go; a stateless endpoint has no stream for
    // server-initiated requests or notifications, so those are dropped.
    if (!isJSONRPCResultResponse(message) && !isJSONRPCErrorResponse(message)) return;
    const internal = message.id;
    const waiting = typeof internal === 'number' ? this.pending.get(internal) : undefined;
    if (!waiting) return;
    this.pending.delete(internal as number);
    waiting.resolve({ ...message, id: waiting.id });
  }

  /** Delivers one message to the server; a request resolves with its answer, a notification with null. */
  dispatch(message: JSONRPCMessage, extra: MessageExtraInfo): Promise<JSONRPCMessage | null> {
    if (!isJSONRPCRequest(message)) {
      this.onmessage?.(message, extra);
      return Promise.resolve(null);
    }
    const internal = ++this.counter;
    return new Promise((resolve) => {
      this.pending.set(internal, { id: message.id, resolve });
      this.onmessage?.({ ...message, id: internal }, extra);
    });
  }
}
